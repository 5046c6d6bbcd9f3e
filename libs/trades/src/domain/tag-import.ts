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

/**
 * A tag file (docs/api.md "Journal"): a header naming `symbol`, `close_date`, `side` and `tags` (any
 * order and case, other columns ignored), then one trade per line; `tags` separated by `;`. A date is
 * `YYYY-MM-DD` or `MM/DD/YYYY`; a side `long` or `short` (any case). Lines are numbered as in the file
 * (the header is line 1); blank lines are skipped. A file without those columns is refused whole.
 */
export function parseTagImport(text: string): TagImportLine[] {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: false });
  const [header = [], ...rows] = parsed.data;
  const names = header.map((cell) => cell.trim().toLowerCase());
  const missing = COLUMNS.filter((column) => !names.includes(column));
  if (missing.length > 0) {
    throw new ValidationError(`The tag file needs a header with the columns symbol, close_date, side and tags (missing: ${missing.join(', ')})`);
  }
  const at = Object.fromEntries(COLUMNS.map((column) => [column, names.indexOf(column)])) as Record<(typeof COLUMNS)[number], number>;
  const lines: TagImportLine[] = [];
  rows.forEach((cells, index) => {
    if (cells.every((cell) => cell.trim() === '')) return;
    if (lines.length >= MAX_TAG_IMPORT_LINES) throw new ValidationError(`The tag file has more than ${MAX_TAG_IMPORT_LINES} lines; split it`);
    lines.push(readLine(index + 2, (column) => (cells[at[column]] ?? '').trim()));
  });
  return lines;
}

function readLine(line: number, cell: (column: (typeof COLUMNS)[number]) => string): TagImportLine {
  const symbol = normaliseSymbol(cell('symbol'));
  if (symbol === '') return { line, error: 'symbol is empty' };
  const closeDate = dateOf(cell('close_date'));
  if (closeDate === undefined) return { line, error: `close_date '${cell('close_date').slice(0, 40)}' is not a date (YYYY-MM-DD or MM/DD/YYYY)` };
  const side = cell('side').toLowerCase();
  if (side !== 'long' && side !== 'short') return { line, error: `side '${cell('side').slice(0, 40)}' is neither long nor short` };
  const tags: TagName[] = [];
  try {
    for (const part of cell('tags').split(';')) if (part.trim() !== '') tags.push(tagNameOf(part));
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
