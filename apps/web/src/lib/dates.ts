// Calendar arithmetic on YYYY-MM-DD and YYYY-MM strings (UTC dates, so no time-zone drift).

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

export function isoDay(date: Date): string {
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** Today's date where the reader is. */
export function localToday(now: Date = new Date()): string {
  return `${pad(now.getFullYear(), 4)}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

function utc(day: string): Date {
  const [year, month, date = 1] = day.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, date));
}

export function addDays(day: string, days: number): string {
  const date = utc(day);
  date.setUTCDate(date.getUTCDate() + days);
  return isoDay(date);
}

/** The Monday of the week holding `day` (weeks run Monday to Sunday, as the reports' weeks do). */
export function mondayOf(day: string): string {
  const weekday = utc(day).getUTCDay(); // Sunday 0 … Saturday 6
  return addDays(day, -((weekday + 6) % 7));
}

export function monthOf(day: string): string {
  return day.slice(0, 7);
}

/** 2024-05 + 1 → 2024-06; 2024-01 − 1 → 2023-12. */
export function addMonths(month: string, months: number): string {
  const [year, index] = month.split('-').map(Number);
  const total = year * 12 + (index - 1) + months;
  return `${pad(Math.floor(total / 12), 4)}-${pad((total % 12) + 1)}`;
}

export function lastDayOfMonth(month: string): string {
  return addDays(`${addMonths(month, 1)}-01`, -1);
}

export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;
export const DAY_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export function isMonth(text: string | null | undefined): text is string {
  return typeof text === 'string' && MONTH_PATTERN.test(text);
}

export function isDay(text: string | null | undefined): text is string {
  return typeof text === 'string' && DAY_PATTERN.test(text) && isoDay(utc(text)) === text;
}

/**
 * Bars of a chart by period with the periods between them that have none, as zero (a chart that
 * skipped them would draw two weeks apart as neighbours). `next` steps from one period key to the
 * next; `points` are in order. At most `limit` bars (the rest, the oldest, are left out).
 */
export function withEmptyPeriods(points: readonly { key: string; value: number }[], next: (key: string) => string, limit = 1000): { key: string; value: number }[] {
  if (points.length === 0) return [];
  const values = new Map(points.map((point) => [point.key, point.value]));
  const last = points[points.length - 1].key;
  const filled: { key: string; value: number }[] = [];
  for (let key = points[0].key; key <= last; key = next(key)) filled.push({ key, value: values.get(key) ?? 0 });
  return filled.slice(-limit);
}
