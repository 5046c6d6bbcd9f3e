import { addDays, dayOfWeek, isWeekend, lastDayOfMonth, makeIsoDate, type IsoDate } from '@app/shared/domain';
import { assertSupportedYear } from './iso-date.js';
import { EARLY_CLOSE_TIME } from './market-session.js';

// NYSE holidays and 13:00 early closes, by rule (NYSE Rule 7.2 and the exchange's published calendars).
// Closures the exchange decides ad hoc are not rules and are not encoded: national days of mourning
// (e.g. President Carter, 2025-01-09; President Bush, 2018-12-05), weather (Hurricane Sandy, 2012-10-29/30)
// and emergencies (2001-09-11 to 09-14). Such a day counts here as an ordinary trading day.

export interface MarketHoliday {
  readonly date: IsoDate;
  readonly name: string;
  readonly type: 'holiday';
}

export interface EarlyClose {
  readonly date: IsoDate;
  readonly name: string;
  readonly type: 'early_close';
  readonly closeTime: string;
}

/** A day the NYSE calendar lists: a full-day holiday or a 13:00 early close. */
export type CalendarEntry = MarketHoliday | EarlyClose;

// Weekdays as dayOfWeek counts them.
const SUNDAY = 0;
const MONDAY = 1;
const THURSDAY = 4;
const SATURDAY = 6;

/** Easter Sunday by the anonymous Gregorian algorithm (Meeus/Jones/Butcher). */
export function easterSunday(year: number): IsoDate {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return makeIsoDate(year, month, day);
}

/** The year's full-day NYSE holidays, with their observed dates, sorted by date. */
export function nyseHolidays(year: number): MarketHoliday[] {
  assertSupportedYear(year);
  const holidays: (MarketHoliday | null)[] = [
    // A Saturday New Year's Day is not moved back: the Friday before closes a yearly accounting period.
    fixedDateHoliday(year, 1, 1, "New Year's Day", { observeSaturdayOnFriday: false }),
    holiday(nthWeekday(year, 1, MONDAY, 3), 'Martin Luther King, Jr. Day'),
    holiday(nthWeekday(year, 2, MONDAY, 3), "Washington's Birthday"),
    holiday(addDays(easterSunday(year), -2), 'Good Friday'),
    holiday(lastWeekday(year, 5, MONDAY), 'Memorial Day'),
    year >= 2022 ? fixedDateHoliday(year, 6, 19, 'Juneteenth National Independence Day') : null,
    fixedDateHoliday(year, 7, 4, 'Independence Day'),
    holiday(nthWeekday(year, 9, MONDAY, 1), 'Labor Day'),
    holiday(thanksgiving(year), 'Thanksgiving Day'),
    fixedDateHoliday(year, 12, 25, 'Christmas Day'),
  ];
  return holidays.filter((h): h is MarketHoliday => h !== null).sort(byDate);
}

/**
 * The year's 13:00 early closes, sorted: the day after Thanksgiving always; July 3 and December 24 when
 * they fall on a weekday that is itself a trading day (so not when July 3 is the observed Independence Day,
 * as in 2026, nor when December 24 is the observed Christmas).
 */
export function nyseEarlyCloses(year: number, holidays: readonly MarketHoliday[] = nyseHolidays(year)): EarlyClose[] {
  const closed = new Set(holidays.map((h) => h.date));
  const isWeekdayTradingDay = (date: IsoDate) => !isWeekend(date) && !closed.has(date);
  const candidates: [IsoDate, string][] = [
    [makeIsoDate(year, 7, 3), 'Day before Independence Day'],
    [addDays(thanksgiving(year), 1), 'Day after Thanksgiving'],
    [makeIsoDate(year, 12, 24), 'Christmas Eve'],
  ];
  return candidates
    .filter(([date]) => isWeekdayTradingDay(date))
    .map(([date, name]): EarlyClose => ({ date, name, type: 'early_close', closeTime: EARLY_CLOSE_TIME }));
}

function holiday(date: IsoDate, name: string): MarketHoliday {
  return { date, name, type: 'holiday' };
}

/** A holiday on a fixed date: Saturday is observed on the Friday before, Sunday on the Monday after. */
function fixedDateHoliday(
  year: number,
  month: number,
  day: number,
  name: string,
  { observeSaturdayOnFriday = true } = {},
): MarketHoliday | null {
  const date = makeIsoDate(year, month, day);
  switch (dayOfWeek(date)) {
    case SATURDAY:
      return observeSaturdayOnFriday ? holiday(addDays(date, -1), `${name} (observed)`) : null;
    case SUNDAY:
      return holiday(addDays(date, 1), `${name} (observed)`);
    default:
      return holiday(date, name);
  }
}

function thanksgiving(year: number): IsoDate {
  return nthWeekday(year, 11, THURSDAY, 4);
}

/** The n-th given weekday (as dayOfWeek counts them) of a month. */
function nthWeekday(year: number, month: number, weekday: number, n: number): IsoDate {
  const first = makeIsoDate(year, month, 1);
  const offset = (weekday - dayOfWeek(first) + 7) % 7;
  return addDays(first, offset + 7 * (n - 1));
}

function lastWeekday(year: number, month: number, weekday: number): IsoDate {
  const last = lastDayOfMonth(year, month);
  return addDays(last, -((dayOfWeek(last) - weekday + 7) % 7));
}

function byDate(a: { date: IsoDate }, b: { date: IsoDate }): number {
  return a.date < b.date ? -1 : a.date > b.date ? 1 : 0;
}
