/**
 * Calendar dates as `YYYY-MM-DD` strings. Arithmetic goes through UTC day numbers, never local-time
 * `Date`s, so a server's time zone cannot move a trade to another day.
 */
export type IsoDate = string;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})$/;
const BROKER_DATE = /^(\S+)(?:\s+as\s+of\s+(\S+))?$/i;
const MS_PER_DAY = 86_400_000;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function isValidDay(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) {
    return false;
  }
  return day <= (month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]);
}

/**
 * The years the service works with: every stored date, every report month and every date a request
 * names. Outside it the reports' date arithmetic (and the databases' date types at the far ends) would
 * fail, and no brokerage record is dated there.
 */
export const FIRST_SUPPORTED_YEAR = 1900;
export const LAST_SUPPORTED_YEAR = 2199;
export const SUPPORTED_DATES = `${FIRST_SUPPORTED_YEAR}-01-01 to ${LAST_SUPPORTED_YEAR}-12-31`;

/** Whether a `YYYY-MM-DD` or `YYYY-MM` string falls in the supported years. */
export function isSupportedDate(date: string): boolean {
  const year = Number(date.slice(0, 4));
  return year >= FIRST_SUPPORTED_YEAR && year <= LAST_SUPPORTED_YEAR;
}

/** The `YYYY-MM-DD` of a year, month (1–12) and day; not checked (see `parseIsoDate`). */
export function makeIsoDate(year: number, month: number, day: number): IsoDate {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** `YYYY-MM-DD` that names a real calendar day (2024-02-30 does not). */
export function isIsoDate(text: string): boolean {
  return parseIsoDate(text) !== undefined;
}

export function parseIsoDate(text: string): IsoDate | undefined {
  const match = ISO_DATE.exec(text.trim());
  if (!match) {
    return undefined;
  }
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return isValidDay(year, month, day) ? makeIsoDate(year, month, day) : undefined;
}

/** `MM/DD/YYYY` (also `M/D/YYYY` and a two-digit year, as a spreadsheet re-save may write it). */
export function parseUsDate(text: string): IsoDate | undefined {
  const match = US_DATE.exec(text.trim());
  if (!match) {
    return undefined;
  }
  const month = Number(match[1]);
  const day = Number(match[2]);
  const year = match[3].length === 2 ? 2000 + Number(match[3]) : Number(match[3]);
  return isValidDay(year, month, day) ? makeIsoDate(year, month, day) : undefined;
}

export interface BrokerDate {
  /** The first date: the posted trade date, the one every calculation uses. */
  readonly date: IsoDate;
  /** The `as of` date, when the broker gave one. */
  readonly asOf: IsoDate | null;
}

// An import reads the same few thousand dates over and over.
const brokerDateCache = new Map<string, BrokerDate | undefined>();
const BROKER_DATE_CACHE_SIZE = 20_000;

/** `MM/DD/YYYY` or `MM/DD/YYYY as of MM/DD/YYYY` (ISO dates are accepted too). */
export function parseBrokerDate(text: string): BrokerDate | undefined {
  if (brokerDateCache.has(text)) {
    return brokerDateCache.get(text);
  }
  const parsed = readBrokerDate(text);
  if (brokerDateCache.size >= BROKER_DATE_CACHE_SIZE) {
    brokerDateCache.clear();
  }
  brokerDateCache.set(text, parsed);
  return parsed;
}

function readBrokerDate(text: string): BrokerDate | undefined {
  const match = BROKER_DATE.exec(text.trim());
  if (!match) {
    return undefined;
  }
  const date = parseUsDate(match[1]) ?? parseIsoDate(match[1]);
  if (date === undefined) {
    return undefined;
  }
  if (match[2] === undefined) {
    return Object.freeze({ date, asOf: null });
  }
  const asOf = parseUsDate(match[2]) ?? parseIsoDate(match[2]);
  return asOf === undefined ? undefined : Object.freeze({ date, asOf });
}

function digitsAt(text: string, start: number, count: number): number {
  let value = 0;
  for (let index = start; index < start + count; index += 1) {
    const code = text.charCodeAt(index) - 48;
    if (code < 0 || code > 9) {
      return Number.NaN;
    }
    value = value * 10 + code;
  }
  return value;
}

/** Days since 1970-01-01 (proleptic Gregorian, no Date object: this runs once per trade). */
function dayNumber(date: IsoDate): number {
  const year = digitsAt(date, 0, 4);
  const month = digitsAt(date, 5, 2);
  const day = digitsAt(date, 8, 2);
  if (date.length !== 10 || date[4] !== '-' || date[7] !== '-' || !isValidDay(year, month, day)) {
    throw new RangeError(`Not a YYYY-MM-DD date: '${date}'`);
  }
  // Howard Hinnant's days_from_civil.
  const shiftedYear = month <= 2 ? year - 1 : year;
  const era = Math.floor(shiftedYear / 400);
  const yearOfEra = shiftedYear - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

function fromDayNumber(days: number): IsoDate {
  return new Date(days * MS_PER_DAY).toISOString().slice(0, 10);
}

/** Calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  return dayNumber(to) - dayNumber(from);
}

export function addDays(date: IsoDate, days: number): IsoDate {
  return fromDayNumber(dayNumber(date) + days);
}

/** `YYYY-MM`. */
export function monthOf(date: IsoDate): string {
  dayNumber(date);
  return date.slice(0, 7);
}

/** Sunday 0 … Saturday 6 (as JavaScript and the contract's `day_of_week` count). */
export function dayOfWeek(date: IsoDate): number {
  return (((dayNumber(date) + 4) % 7) + 7) % 7;
}

export function isWeekend(date: IsoDate): boolean {
  const day = dayOfWeek(date);
  return day === 0 || day === 6;
}

/** The last day of a month (1–12). */
export function lastDayOfMonth(year: number, month: number): IsoDate {
  return addDays(month === 12 ? makeIsoDate(year + 1, 1, 1) : makeIsoDate(year, month + 1, 1), -1);
}

/** The Monday of the Monday–Sunday week containing `date`. */
export function weekStart(date: IsoDate): IsoDate {
  return addDays(date, -((dayOfWeek(date) + 6) % 7));
}

export function compareDates(a: IsoDate, b: IsoDate): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
