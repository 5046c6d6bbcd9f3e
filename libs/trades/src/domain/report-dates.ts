import { addDays, isSupportedDate, parseIsoDate, SUPPORTED_DATES, ValidationError, type IsoDate } from '@app/shared/domain';

/** A calendar month of a report: `YYYY-MM` and its first and last day. */
export interface ReportMonth {
  readonly month: string;
  readonly year: number;
  readonly monthNumber: number;
  readonly firstDay: IsoDate;
  readonly lastDay: IsoDate;
}

const MONTH = /^(\d{4})-(\d{2})$/;

export const INVALID_DATE = 'Invalid date format. Use YYYY-MM-DD';
export const DATES_REQUIRED = 'Start date and end date are required';
const SUPPORTED_MONTHS = `${SUPPORTED_DATES.slice(0, 7)} to ${SUPPORTED_DATES.slice(-10, -3)}`;

/** A real day in the supported years, or a refusal that says which it is not. */
function supportedDate(date: IsoDate): IsoDate {
  if (!isSupportedDate(date)) throw new ValidationError(`Invalid date: ${date}. Dates from ${SUPPORTED_DATES} are supported`);
  return date;
}

export function reportMonth(year: number, monthNumber: number): ReportMonth {
  const month = `${String(year).padStart(4, '0')}-${String(monthNumber).padStart(2, '0')}`;
  const firstDay = `${month}-01`;
  const next = monthNumber === 12 ? `${String(year + 1).padStart(4, '0')}-01-01` : `${month.slice(0, 5)}${String(monthNumber + 1).padStart(2, '0')}-01`;
  return { month, year, monthNumber, firstDay, lastDay: addDays(next, -1) };
}

/** A `YYYY-MM` path segment; says what is wrong when it is not one. */
export function parseReportMonth(input: unknown): ReportMonth {
  const text = typeof input === 'string' ? input.trim() : '';
  const match = MONTH.exec(text);
  if (match === null) throw new ValidationError(`Invalid month format: '${String(input ?? '')}'. Use YYYY-MM`);
  const year = Number(match[1]);
  const monthNumber = Number(match[2]);
  if (monthNumber < 1 || monthNumber > 12) throw new ValidationError(`Invalid month: '${text}'. The month must be 01 to 12`);
  if (!isSupportedDate(text)) throw new ValidationError(`Invalid month: '${text}'. Months from ${SUPPORTED_MONTHS} are supported`);
  return reportMonth(year, monthNumber);
}

/** A required `YYYY-MM-DD` query parameter (a real calendar day). */
export function parseReportDate(input: unknown, name: string): IsoDate {
  const text = single(input, name);
  if (text === undefined || text.trim() === '') throw new ValidationError(`Parameter '${name}' is required (YYYY-MM-DD)`);
  const date = parseIsoDate(text);
  if (date === undefined) throw new ValidationError(INVALID_DATE);
  return supportedDate(date);
}

/** What a timeframe report covers: everything, or the days from `start` to `end`; maybe only some symbols. */
export type TimeframeSelection =
  | { readonly allTime: true; readonly symbols: readonly string[] | null }
  | { readonly allTime: false; readonly start: IsoDate; readonly end: IsoDate; readonly symbols: readonly string[] | null };

export interface TimeframeQuery {
  start?: unknown;
  end?: unknown;
  all?: unknown;
  symbols?: unknown;
}

/**
 * The timeframe query (../shared/spec/decisions.md §4): `all=true` means all time and the dates are ignored;
 * otherwise both dates are required, real days, start not after end. `symbols` is a comma-separated
 * filter of tickers (any case); empty means no filter.
 */
export function parseTimeframeQuery(query: TimeframeQuery): TimeframeSelection {
  const symbols = parseSymbolsFilter(query.symbols);
  const all = single(query.all, 'all');
  if (all !== undefined && all.trim().toLowerCase() === 'true') return { allTime: true, symbols };
  const startText = single(query.start, 'start');
  const endText = single(query.end, 'end');
  if (startText === undefined || startText.trim() === '' || endText === undefined || endText.trim() === '') {
    throw new ValidationError(DATES_REQUIRED);
  }
  const start = parseIsoDate(startText);
  const end = parseIsoDate(endText);
  if (start === undefined || end === undefined) throw new ValidationError(INVALID_DATE);
  supportedDate(start);
  supportedDate(end);
  if (start > end) throw new ValidationError(`Start date ${start} is after end date ${end}`);
  return { allTime: false, start, end, symbols };
}

const SYMBOL = /^[A-Z0-9][A-Z0-9./\-^ ]{0,31}$/;
const MAX_SYMBOLS = 500;

/** A ticker as typed by a user (`nvda`, ` NVDA `) in the form the data holds it (`NVDA`). */
export function normaliseSymbol(input: string): string {
  return input.trim().toUpperCase();
}

export function parseSymbolsFilter(input: unknown): readonly string[] | null {
  if (input === undefined) return null;
  const parts = (Array.isArray(input) ? input : [input]).flatMap((part) => String(part).split(','));
  const symbols = [...new Set(parts.map(normaliseSymbol).filter((symbol) => symbol !== ''))];
  if (symbols.length === 0) return null;
  if (symbols.length > MAX_SYMBOLS) throw new ValidationError(`Too many symbols: at most ${MAX_SYMBOLS}`);
  const bad = symbols.find((symbol) => !SYMBOL.test(symbol));
  if (bad !== undefined) throw new ValidationError(`Invalid symbol in 'symbols': '${bad}'`);
  return symbols.sort();
}

function single(input: unknown, name: string): string | undefined {
  if (input === undefined || input === null) return undefined;
  if (typeof input === 'string') return input;
  throw new ValidationError(`Parameter '${name}' must be given once`);
}
