import { addDays, dayOfWeek, weekStart, type IsoDate } from '@app/shared/domain';
import { NO_ACTIVITY, addTotals, type DayTotals, type PeriodTotals } from './period-totals.js';
import type { ReportMonth } from './report-dates.js';

/** One day of the calendar view, with the totals of its Monday–Sunday week (also days outside the month). */
export interface CalendarDay {
  readonly date: IsoDate;
  /** Day of the month, 1–31. */
  readonly day: number;
  /** Sunday 0 … Saturday 6 (a Thursday is 4). */
  readonly dayOfWeek: number;
  /** The Monday of the day's week. */
  readonly weekStart: IsoDate;
  readonly totals: PeriodTotals;
  readonly week: PeriodTotals;
}

/** The days whose totals a month's calendar needs: from the Monday of its first week to the Sunday of its last. */
export function calendarWindow(month: ReportMonth): { from: IsoDate; to: IsoDate } {
  return { from: weekStart(month.firstDay), to: addDays(weekStart(month.lastDay), 6) };
}

/** Every day of the month, in order; `days` are the daily totals of (at least) the calendar window. */
export function buildCalendarMonth(month: ReportMonth, days: readonly DayTotals[]): CalendarDay[] {
  const byDate = new Map<IsoDate, PeriodTotals>(days.map((day) => [day.date, day]));
  const weeks = new Map<IsoDate, PeriodTotals>();
  for (const day of days) {
    const week = weekStart(day.date);
    weeks.set(week, addTotals(weeks.get(week) ?? NO_ACTIVITY, day));
  }
  const calendar: CalendarDay[] = [];
  for (let date = month.firstDay; date <= month.lastDay; date = addDays(date, 1)) {
    const monday = weekStart(date);
    calendar.push({
      date,
      day: Number(date.slice(8, 10)),
      dayOfWeek: dayOfWeek(date),
      weekStart: monday,
      totals: byDate.get(date) ?? NO_ACTIVITY,
      week: weeks.get(monday) ?? NO_ACTIVITY,
    });
  }
  return calendar;
}
