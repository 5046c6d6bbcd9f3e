import Papa from 'papaparse';
import { ImportFileError } from '../import.errors.js';

/** Whether a file's name says it is JSON: Ghostfolio's export, which `POST /api/import` reads beside CSV files. */
export function hasJsonName(name: string): boolean {
  return /\.json$/i.test(name);
}

/**
 * The largest Ghostfolio export read: it is parsed whole, on the thread that answers every request
 * (20 MB: some 50,000 activities as Ghostfolio writes them, about 420 bytes each).
 */
export const GHOSTFOLIO_EXPORT_MAX_BYTES = 20 * 1024 * 1024;

/** The columns of Ghostfolio's activities CSV the export's activities are written in (ghostfolio-activities.format.ts reads them). */
const HEADER = ['Date', 'Code', 'DataSource', 'Currency', 'Price', 'Quantity', 'Action', 'Fee', 'Note'];

const DAY_MS = 86_400_000;
/** An ISO date and time as Ghostfolio writes one (`2024-01-03T00:00:00.000Z`); the zone, if any, is group 1. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/;
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
/** Runs of white space and control characters, which a comment on one line has as one space. */
const BLANKS = new RegExp(`(?:${CONTROL_CHARACTER.source}|\\s)+`, 'g');

/**
 * Ghostfolio's export (the JSON of its "Export Activities": `{meta, accounts, activities: [{date, type,
 * symbol, dataSource, currency, quantity, unitPrice, fee, comment, accountId, …}], …}`) as the CSV of
 * activities that Ghostfolio's own import reads, which the import then reads as any such file
 * (docs/formats.md "Ghostfolio — Activities"): one row per activity, in the export's order by day; line
 * N of that text is the export's activity N − 1. Each activity's day is its date's nearest UTC midnight:
 * Ghostfolio keeps a day as the midnight of the zone it was entered in (`2024-01-02T23:00:00.000Z` is
 * the 3rd entered in Berlin), so any zone from UTC−11:59 to UTC+12 gives the day the trader entered; a
 * date without a zone is UTC's. Figures are written as JSON gave them. Throws an ImportFileError naming
 * the file (and the activity) for a file that is not such an export.
 */
export function ghostfolioExportAsCsv(fileName: string, bytes: Uint8Array): Buffer {
  const refuse = (reason: string) => ImportFileError.notAnExport(fileName, reason);
  if (bytes.length > GHOSTFOLIO_EXPORT_MAX_BYTES) throw refuse(`larger than the ${GHOSTFOLIO_EXPORT_MAX_BYTES / 1024 / 1024} MB a Ghostfolio export is read up to`);
  let exported: unknown;
  try {
    exported = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch (error) {
    throw refuse(`not JSON a Ghostfolio export is made of (${error instanceof SyntaxError ? error.message : 'its bytes are not UTF-8 text'})`);
  }
  const activities = isRecord(exported) ? exported.activities : undefined;
  if (!Array.isArray(activities)) throw refuse('not a Ghostfolio export: a JSON file the import reads is the one Ghostfolio\'s "Export Activities" gives, with its activities');
  if (activities.length === 0) throw refuse('the export holds no activities');
  const rows = activities.map((activity: unknown, index) => activityRow(activity, (reason) => refuse(`activity ${index + 1}: ${reason}`)));
  // By day (the sort is stable: one day's activities stay in the export's order), every cell quoted.
  rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return Buffer.from(`${Papa.unparse([HEADER, ...rows], { quotes: true, newline: '\n' })}\n`, 'utf8');
}

/** One activity's cells, in HEADER's order. */
function activityRow(activity: unknown, refuse: (reason: string) => ImportFileError): string[] {
  if (!isRecord(activity)) throw refuse('not an activity (an object with its date, type, symbol and figures)');
  const text = (field: string, required: boolean): string => {
    const value = activity[field];
    if (typeof value === 'string') {
      if (field !== 'comment' && CONTROL_CHARACTER.test(value)) throw refuse(`'${field}' holds a control character`);
      return value;
    }
    if ((value === undefined || value === null) && !required) return '';
    throw refuse(`'${field}' ${value === undefined || value === null ? 'is missing' : 'is not a text'}`);
  };
  const figure = (field: string, required: boolean): string => {
    const value = activity[field];
    if (typeof value === 'number' && Number.isFinite(value)) return plainNumber(value);
    if ((value === undefined || value === null) && !required) return '';
    throw refuse(`'${field}' ${value === undefined || value === null ? 'is missing' : 'is not a number'}`);
  };
  const date = text('date', true);
  const written = ISO_DATE_TIME.exec(date);
  // Without a zone, JavaScript would read the time in the service's own zone.
  const at = written === null ? NaN : Date.parse(written[1] === undefined ? `${date}Z` : date);
  if (Number.isNaN(at)) throw refuse(`'${date.slice(0, 40)}' is not a date and time as Ghostfolio writes one (2024-01-03T00:00:00.000Z)`);
  const day = new Date(Math.round(at / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
  return [day, text('symbol', false), text('dataSource', false), text('currency', true), figure('unitPrice', true), figure('quantity', true), text('type', true), figure('fee', false), oneLine(text('comment', false))];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A number as a decimal without an exponent, digit for digit JavaScript's shortest writing of it
 * (`5e-7` is `0.0000005`): the figures' reader takes no exponent.
 */
export function plainNumber(value: number): string {
  const text = String(value);
  const at = text.indexOf('e');
  if (at < 0) return text;
  const sign = text.startsWith('-') ? '-' : '';
  const [whole, fraction = ''] = text.slice(sign.length, at).split('.');
  const digits = whole + fraction;
  const point = whole.length + Number(text.slice(at + 1));
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** A comment on one line, without control characters (which no CSV file the import reads may hold). */
function oneLine(text: string): string {
  return text.replace(BLANKS, ' ').trim();
}
