import type { CalendarDay } from '../api/types';

// The month as a grid of weeks, Monday to Sunday (as the reports' weeks run), with beside each row the
// totals of the days it shows: a week that starts or ends in a neighbouring month counts only its days
// in this month (the API's `week_*` cover the whole week), so the rows add up to the month's total.

export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
export const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

export interface WeekTotals {
  tradeCount: number;
  winningTrades: number;
  totalPnl: number;
  winRate: number;
}

export interface CalendarWeek {
  /** Seven cells, Monday first; null for days of the neighbouring months. */
  cells: (CalendarDay | null)[];
  totals: WeekTotals;
}

/** Monday-first column of a `day_of_week` (Sunday 0 … Saturday 6). */
export function mondayFirstColumn(dayOfWeek: number): number {
  return (dayOfWeek + 6) % 7;
}

export function calendarWeeks(days: readonly CalendarDay[]): CalendarWeek[] {
  const sorted = [...days].sort((a, b) => a.day - b.day);
  const weeks: CalendarWeek[] = [];
  let current: CalendarWeek | undefined;
  for (const day of sorted) {
    const column = mondayFirstColumn(day.day_of_week);
    if (current === undefined || column === 0) {
      current = { cells: Array<CalendarDay | null>(7).fill(null), totals: { tradeCount: 0, winningTrades: 0, totalPnl: 0, winRate: 0 } };
      weeks.push(current);
    }
    current.cells[column] = day;
  }
  return weeks.map((week) => ({ ...week, totals: totalsOf(week.cells.filter((cell): cell is CalendarDay => cell !== null)) }));
}

/** The totals of some days: money summed in whole cents (each day's figure is rounded to the cent). */
function totalsOf(days: readonly CalendarDay[]): WeekTotals {
  const tradeCount = days.reduce((sum, day) => sum + day.trade_count, 0);
  const winningTrades = days.reduce((sum, day) => sum + day.winning_trades, 0);
  const cents = days.reduce((sum, day) => sum + Math.round(day.total_pnl * 100), 0);
  return { tradeCount, winningTrades, totalPnl: cents / 100, winRate: tradeCount === 0 ? 0 : Math.round((winningTrades / tradeCount) * 10000) / 100 };
}

/**
 * How strongly a day is coloured: 0 (no activity) to 1 (the month's largest gain or loss), on a
 * square-root scale so that small days still show. The sign decides the colour.
 */
export function heatLevel(value: number, largest: number): number {
  if (value === 0 || largest <= 0) return 0;
  return Math.min(1, Math.sqrt(Math.abs(value) / largest));
}

/** The largest absolute daily total of the month (the scale of the heat map). */
export function largestDailyMove(days: readonly CalendarDay[]): number {
  return days.reduce((largest, day) => Math.max(largest, Math.abs(day.total_pnl)), 0);
}

/** Four steps are enough to read and keep the text readable on every one of them. */
export function heatStep(value: number, largest: number): 0 | 1 | 2 | 3 | 4 {
  const level = heatLevel(value, largest);
  if (level === 0) return 0;
  return Math.max(1, Math.ceil(level * 4)) as 1 | 2 | 3 | 4;
}
