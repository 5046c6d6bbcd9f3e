import Papa from 'papaparse';
import { parseIsoDate, isSupportedDate, ValidationError, type IsoDate } from '@app/shared/domain';
import type { TradeSide } from './closed-trade.js';
import { tagNameOf, type TagName } from './journal.js';
import { normaliseSymbol } from './report-dates.js';

/** Lines a tag file may hold: a journal's whole history of trades, with room to spare. */
export const MAX_TAG_IMPORT_LINES = 200_000;

/** A line of a tag file as read: what it names and its tags, or why it names nothing. */
export type TagImportLine =
  | { readonly line: number; readonly symbol: string; readonly side: TradeSide; readonly closeDate: IsoDate; readonly tags: readonly TagName[] }
  | { readonly line: number; readonly error: string };

const COLUMNS = ['symbol', 'close_date', 'side', 'tags'] as const;
type Column = (typeof COLUMNS)[number];

/** How a file names and writes the four things a line gives. */
interface Dialect {
  /** The header's name of each column (lower case). */
  readonly names: Readonly<Record<Column, string>>;
  /** Between two tags of a line. */
  readonly separator: string;
  /** A side as written, lower case, as the journal's. */
  readonly sides: ReadonlyMap<string, TradeSide>;
  /** The day of the close as written (a date and time: its date). */
  readonly closeDay: (text: string) => string;
  /** A line without tags, or without a close (a trade still open), is passed over rather than listed. */
  readonly skipsBareLines: boolean;
}

/** The journal's own tag file (docs/api.md "Journal"). */
const OWN: Dialect = {
  names: { symbol: 'symbol', close_date: 'close_date', side: 'side', tags: 'tags' },
  separator: ';',
  sides: new Map([['long', 'long'], ['short', 'short']]),
  closeDay: (text) => text,
  skipsBareLines: false,
};

/**
 * Tradervue's export of trades, as it is (`Open Datetime, Close Datetime, Symbol, Side, …, Tags`):
 * `Side` `L`/`S`, the close a date and time, tags separated by commas; its trades without tags, and
 * those still open, are passed over.
 */
const TRADERVUE: Dialect = {
  names: { symbol: 'symbol', close_date: 'close datetime', side: 'side', tags: 'tags' },
  separator: ',',
  sides: new Map([['l', 'long'], ['long', 'long'], ['s', 'short'], ['short', 'short']]),
  closeDay: (text) => text.split(/[ T]/)[0],
  skipsBareLines: true,
};

/**
 * A tag file (docs/api.md "Journal"): a header naming `symbol`, `close_date`, `side` and `tags` (any
 * order and case, other columns ignored), then one trade per line; `tags` separated by `;`. A date is
 * `YYYY-MM-DD` or `MM/DD/YYYY`; a side `long` or `short` (any case). Tradervue's export of trades is
 * read as it is (`TRADERVUE`). Lines are numbered as in the file (the header is line 1); blank lines
 * are skipped. A file without those columns is refused whole.
 */
export function parseTagImport(text: string): TagImportLine[] {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: false });
  const [header = [], ...rows] = parsed.data;
  const names = header.map((cell) => cell.trim().replace(/\s+/g, ' ').toLowerCase());
  const dialect = !names.includes(OWN.names.close_date) && names.includes(TRADERVUE.names.close_date) ? TRADERVUE : OWN;
  const missing = COLUMNS.filter((column) => !names.includes(dialect.names[column]));
  if (missing.length > 0) {
    throw new ValidationError(`The tag file needs a header with the columns symbol, close_date, side and tags (missing: ${missing.map((column) => dialect.names[column]).join(', ')})`);
  }
  const at = Object.fromEntries(COLUMNS.map((column) => [column, names.indexOf(dialect.names[column])])) as Record<Column, number>;
  const lines: TagImportLine[] = [];
  rows.forEach((cells, index) => {
    if (cells.every((cell) => cell.trim() === '')) return;
    const cell = (column: Column) => (cells[at[column]] ?? '').trim();
    if (dialect.skipsBareLines && (cell('tags') === '' || cell('close_date') === '')) return;
    if (lines.length >= MAX_TAG_IMPORT_LINES) throw new ValidationError(`The tag file has more than ${MAX_TAG_IMPORT_LINES} lines; split it`);
    lines.push(readLine(index + 2, cell, dialect));
  });
  return lines;
}

function readLine(line: number, cell: (column: Column) => string, dialect: Dialect): TagImportLine {
  const symbol = normaliseSymbol(cell('symbol'));
  if (symbol === '') return { line, error: 'symbol is empty' };
  const closeDate = dateOf(dialect.closeDay(cell('close_date')));
  if (closeDate === undefined) return { line, error: `close_date '${cell('close_date').slice(0, 40)}' is not a date (YYYY-MM-DD or MM/DD/YYYY)` };
  const side = dialect.sides.get(cell('side').toLowerCase());
  if (side === undefined) return { line, error: `side '${cell('side').slice(0, 40)}' is neither long nor short` };
  const tags: TagName[] = [];
  try {
    for (const part of cell('tags').split(dialect.separator)) if (part.trim() !== '') tags.push(tagNameOf(part));
  } catch (error) {
    return { line, error: error instanceof ValidationError ? error.message : 'tags are not valid' };
  }
  if (tags.length === 0) return { line, error: 'tags is empty' };
  return { line, symbol, side, closeDate, tags };
}

function dateOf(text: string): IsoDate | undefined {
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  const iso = us === null ? text : `${us[3]}-${us[1].padStart(2, '0')}-${us[2].padStart(2, '0')}`;
  const date = parseIsoDate(iso);
  return date !== undefined && date === iso && isSupportedDate(date) ? date : undefined;
}
