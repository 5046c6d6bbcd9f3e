import { DateTime } from 'luxon';
import { makeIsoDate, type IsoDate } from '@app/shared/domain';
import {
  InvalidDateError,
  InvalidMonthError,
  InvalidYearError,
  MAX_SUPPORTED_YEAR,
  MIN_SUPPORTED_YEAR,
} from './trading-calendar.errors.js';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const FOUR_DIGIT_YEAR = /^\d{4}$/;
const MONTH_NUMBER = /^\d{1,2}$/;

// The calendar's checks of the years, months and days a request names, and the bridge between
// `YYYY-MM-DD` dates (@app/shared/domain, which owns date arithmetic) and the luxon values the
// market's hours are computed with. Those are pinned to UTC: a civil date has no zone, and UTC has
// no DST gaps, so neither the server's own TZ nor New York's clock changes can shift a day.

export function assertSupportedYear(year: number): void {
  if (!Number.isInteger(year)) throw new InvalidYearError(String(year));
  if (year < MIN_SUPPORTED_YEAR || year > MAX_SUPPORTED_YEAR) throw InvalidYearError.outOfRange(year);
}

export function assertMonth(month: number): void {
  if (!Number.isInteger(month) || month < 1 || month > 12) throw new InvalidMonthError(String(month));
}

/** Parses a year given as text (a query parameter): four digits, within the supported range. */
export function parseYear(input: unknown): number {
  const text = typeof input === 'string' ? input.trim() : String(input);
  if (typeof input !== 'string' || !FOUR_DIGIT_YEAR.test(text)) throw new InvalidYearError(text);
  const year = Number(text);
  assertSupportedYear(year);
  return year;
}

/** Parses a month number given as text (a query parameter): 1 to 12. */
export function parseMonthNumber(input: unknown): number {
  const text = typeof input === 'string' ? input.trim() : String(input);
  if (typeof input !== 'string' || !MONTH_NUMBER.test(text)) throw new InvalidMonthError(text);
  const month = Number(text);
  assertMonth(month);
  return month;
}

/** Validates a `YYYY-MM-DD` string (a real day, in a supported year) and returns it as a UTC-pinned value. */
export function civilDay(date: IsoDate): DateTime {
  if (typeof date !== 'string' || !ISO_DATE.test(date)) throw new InvalidDateError(String(date));
  const day = DateTime.fromISO(date, { zone: 'utc' });
  if (!day.isValid) throw new InvalidDateError(date);
  assertSupportedYear(day.year);
  return day;
}

/** The `YYYY-MM-DD` of a luxon value, read in whatever zone that value is set to. */
export function isoDateOf(value: DateTime): IsoDate {
  return makeIsoDate(value.year, value.month, value.day);
}

export function pad2(value: number): string {
  return String(value).padStart(2, '0');
}
