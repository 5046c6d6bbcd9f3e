import { isSupportedDate, parseBrokerDate, SUPPORTED_DATES, type BrokerDate } from '@app/shared/domain';
import { Decimal } from '@app/shared/domain';
import { ImportFileError } from '../import.errors.js';
import { cellOf, rowCellsJson, widthOf, type CsvRow } from './csv-text.js';
import { tryParseAmount, tryParsePercent } from './broker-figures.js';

/** Header cell as compared: trimmed, single spaces, lower case. */
export function normaliseHeaderCell(cell: string): string {
  return cell.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The header's cells without the empty ones at the end (old exports add an empty column). */
export function headerNames(cells: readonly string[]): string[] {
  const names = cells.map(normaliseHeaderCell);
  while (names.length > 0 && names[names.length - 1] === '') {
    names.pop();
  }
  return names;
}

/**
 * The largest figures an import takes (docs/api.md "Import limits"): past them a cell is a typo or a
 * corrupted file, and would overflow the reports' numbers.
 */
export const FIGURE_LIMITS = {
  /** Money amounts and percentages: within ±10^12. */
  amount: Decimal.of('1000000000000'),
  /** Prices per share: at most 10^7. */
  price: Decimal.of('10000000'),
  /** Share quantities: at most 10^10. */
  quantity: Decimal.of('10000000000'),
} as const;

export interface ColumnSpec {
  /** The name shown in error messages, as the broker writes it. */
  readonly name: string;
  /** Accepted header spellings, normalised. */
  readonly aliases: readonly string[];
  readonly required: boolean;
  /** For a figure: the largest absolute value taken. */
  readonly limit: Decimal;
}

export function column(name: string, required = true, aliases: readonly string[] = [], limit: Decimal = FIGURE_LIMITS.amount): ColumnSpec {
  return { name, required, aliases: [normaliseHeaderCell(name), ...aliases.map(normaliseHeaderCell)], limit };
}

/** The columns of a layout as a list (its description for the supported layouts). */
export function columnList(specs: Readonly<Record<string, ColumnSpec>>): { name: string; required: boolean }[] {
  return Object.values(specs).map((spec) => ({ name: spec.name, required: spec.required }));
}

/** A ticker: letters, digits and `. / - ^` (BRK.B, BRK/B, ^VIX), at most 20 characters. */
const TICKER = /^[A-Z0-9^][A-Z0-9./\-^]{0,19}$/;

/** Whether an upper-case text is a ticker (`TICKER`): what a stock's symbol looks like, not an option's or a future's. */
export function isTicker(text: string): boolean {
  return TICKER.test(text);
}

/** Characters no ticker has and a page or a path could misread. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const UNSAFE_SYMBOL_CHARACTERS = /[<>"'`&;\\{}|\u0000-\u001f\u007f]/;
const MAX_SYMBOL_TEXT = 40;

/** Where each known column sits in one file's header. */
export class ColumnLayout<K extends string> {
  /** What the file's cells have read to so far (RowReader), by kind of reading and column. */
  private readonly memos = new Map<number, CellMemo<unknown>>();

  private constructor(
    private readonly indexes: ReadonlyMap<K, number>,
    private readonly names: readonly string[],
  ) {}

  /** The memo of one kind of reading of one column, for this file. */
  memo<T>(reading: Reading, index: number): CellMemo<T> {
    const id = index * READINGS + reading;
    let memo = this.memos.get(id);
    if (memo === undefined) {
      memo = new CellMemo();
      this.memos.set(id, memo);
    }
    return memo as CellMemo<T>;
  }

  /**
   * Lets go of what the cells have read to (the file is read): the memos' keys are the cells, slices
   * of the file's text, and a slice keeps all of that text alive (at a million rows, the two files'
   * 220 MB for as long as the layout lived: to the end of the import, for the rows a file put aside).
   * Rows read later start new memos.
   */
  forgetReadings(): void {
    this.memos.clear();
  }

  /** Columns in the header (trailing empty ones not counted). */
  get width(): number {
    return this.names.length;
  }

  /** The layout, or undefined when a required column is missing. */
  static of<K extends string>(specs: Readonly<Record<K, ColumnSpec>>, headerCells: readonly string[]): ColumnLayout<K> | undefined {
    const names = headerNames(headerCells);
    const indexes = new Map<K, number>();
    for (const key of Object.keys(specs) as K[]) {
      const index = names.findIndex((name) => specs[key].aliases.includes(name));
      if (index >= 0) {
        indexes.set(key, index);
      } else if (specs[key].required) {
        return undefined;
      }
    }
    return new ColumnLayout(indexes, names);
  }

  has(key: K): boolean {
    return this.indexes.has(key);
  }

  index(key: K): number | undefined {
    return this.indexes.get(key);
  }

  /** True for a row that repeats the header (two exports pasted into one file). */
  isHeaderAgain(row: CsvRow): boolean {
    // Cheap first-cell tests, as this runs on every row: its first character, then the whole cell.
    const first = cellOf(row, 0);
    if (first === undefined || !startsLike(first, this.names[0]) || normaliseHeaderCell(first) !== this.names[0]) {
      return false;
    }
    const names = headerNames(row.cells);
    return names.length === this.names.length && names.every((name, index) => name === this.names[index]);
  }
}

/** Reads one row's cells by column, turning bad values into ImportFileErrors that name file, line and column. */
export class RowReader<K extends string> {
  constructor(
    private readonly fileName: string,
    private readonly row: CsvRow,
    private readonly layout: ColumnLayout<K>,
    private readonly specs: Readonly<Record<K, ColumnSpec>>,
  ) {
    const width = widthOf(row);
    if (width < layout.width) {
      throw ImportFileError.malformedCsv(fileName, row.line, `expected ${layout.width} columns, found ${width}`);
    }
    for (let index = layout.width; index < width; index += 1) {
      if ((cellOf(row, index) as string).trim() !== '') throw ImportFileError.malformedCsv(fileName, row.line, `found ${width} columns, the header has ${layout.width}`);
    }
  }

  get line(): number {
    return this.row.line;
  }

  /** The row's cells as JSON text, as an import stores each row it read. */
  get cellsJson(): string {
    return rowCellsJson(this.row);
  }

  /** True when the file has the column. */
  has(key: K): boolean {
    return this.layout.has(key);
  }

  /** The cell trimmed; '' when empty or the column is absent. */
  text(key: K): string {
    const index = this.layout.index(key);
    return index === undefined ? '' : (cellOf(this.row, index) ?? '').trim();
  }

  /** The cell trimmed, as `text`, shared with the earlier rows whose cell reads the same (for a text a row keeps). */
  sharedText(key: K): string {
    const index = this.layout.index(key);
    if (index === undefined) return '';
    const cell = cellOf(this.row, index) ?? '';
    const memo = this.layout.memo<string>(Reading.Text, index);
    const known = memo.get(cell);
    if (known !== undefined) return known;
    return memo.remember(cell, ownCopy(cell.trim()));
  }

  /** The cell trimmed and shared (`sharedText`); a missing-value error when empty. */
  requiredText(key: K, why = ''): string {
    const value = this.sharedText(key);
    if (value === '') {
      throw this.missing(key, why);
    }
    return value;
  }

  /**
   * The symbol in upper case; '' when empty. Where it names what was traded (`ticker`), it must be a
   * ticker; elsewhere (an interest or transfer row) any short text without markup or control characters.
   * `decoration` is what a broker writes around a ticker and is dropped first (Fidelity's `SPAXX**`).
   */
  symbol(key: K, ticker: boolean, decoration?: RegExp): string {
    const index = this.layout.index(key);
    if (index === undefined || decoration !== undefined) return this.readSymbol(key, ticker, decoration);
    const cell = cellOf(this.row, index) ?? '';
    const memo = this.layout.memo<string>(ticker ? Reading.Ticker : Reading.Symbol, index);
    const known = memo.get(cell);
    if (known !== undefined) return known;
    return memo.remember(cell, ownCopy(this.readSymbol(key, ticker)));
  }

  private readSymbol(key: K, ticker: boolean, decoration?: RegExp): string {
    const written = this.text(key);
    const text = (decoration === undefined ? written : written.replace(decoration, '')).toUpperCase();
    if (text === '') return text;
    const shown = text.length > MAX_SYMBOL_TEXT ? `${text.slice(0, MAX_SYMBOL_TEXT)}…` : text;
    if (ticker && !TICKER.test(text)) {
      throw this.invalid(key, shown, `'${shown}' is not a ticker (1 to 20 letters, digits or . / - ^)`);
    }
    if (text.length > MAX_SYMBOL_TEXT || UNSAFE_SYMBOL_CHARACTERS.test(text)) {
      throw this.invalid(key, shown, `'${shown}' is not a symbol (at most ${MAX_SYMBOL_TEXT} characters, no markup or control characters)`);
    }
    return text;
  }

  /** A money or quantity figure (`$1,234.56`, `($5.00)`, `10,153.89`); null when empty. */
  number(key: K): Decimal | null {
    return this.figure(key, Reading.Amount, tryParseAmount);
  }

  requiredNumber(key: K, why = ''): Decimal {
    const value = this.number(key);
    if (value === null) {
      throw this.missing(key, why);
    }
    return value;
  }

  /** A percentage (`-15.002388237575%`); null when empty. */
  percent(key: K): Decimal | null {
    return this.figure(key, Reading.Percent, tryParsePercent);
  }

  /**
   * The day of a date that may carry a time of day, as the broker writes it (`12/23/2021 09:53:38 EST`,
   * `2024-03-01T14:35:12-0500`, `2024-01-03, 10:15:02`, `20240115;093001`): the day as written, never
   * moved to another time zone.
   */
  day(key: K): BrokerDate {
    const text = this.requiredText(key);
    const written = text.split(/[ T;,]/)[0];
    const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(written);
    return this.date(key, compact === null ? written : `${compact[1]}-${compact[2]}-${compact[3]}`, text);
  }

  /** The date of the cell, or of `text` read from it (`day`); `shown` is how an error quotes it. */
  date(key: K, text?: string, shown?: string): BrokerDate {
    const index = this.layout.index(key);
    if (index === undefined) throw this.missing(key);
    const written = text ?? cellOf(this.row, index) ?? '';
    const memo = this.layout.memo<BrokerDate>(Reading.Date, index);
    const known = memo.get(written);
    if (known !== undefined) return known;
    const trimmed = text ?? written.trim();
    if (trimmed === '') throw this.missing(key);
    return memo.remember(written, this.readDate(key, trimmed, shown ?? trimmed));
  }

  private readDate(key: K, text: string, shown: string): BrokerDate {
    const parsed = parseBrokerDate(text);
    if (!parsed) {
      throw ImportFileError.invalidDate(this.fileName, this.row.line, this.specs[key].name, shown);
    }
    if (!isSupportedDate(parsed.date) || (parsed.asOf !== null && !isSupportedDate(parsed.asOf))) {
      throw this.invalid(key, shown, `'${shown}' is outside the supported dates, ${SUPPORTED_DATES}`);
    }
    return parsed;
  }

  /** `Yes`/`No` (also Y/N, true/false); false when empty. */
  yesNo(key: K): boolean {
    const text = this.text(key).toLowerCase();
    if (['', 'no', 'n', 'false'].includes(text)) {
      return false;
    }
    if (['yes', 'y', 'true'].includes(text)) {
      return true;
    }
    throw this.invalid(key, this.text(key), `expected Yes or No, found '${this.text(key)}'`);
  }

  invalid(key: K, value: string, why: string): ImportFileError {
    return ImportFileError.invalidValue(this.fileName, this.row.line, this.specs[key].name, value, why);
  }

  missing(key: K, why = ''): ImportFileError {
    return ImportFileError.missingValue(this.fileName, this.row.line, this.specs[key].name, why);
  }

  private figure(key: K, reading: Reading, read: (text: string) => Decimal | undefined): Decimal | null {
    const index = this.layout.index(key);
    if (index === undefined) return null;
    const cell = cellOf(this.row, index) ?? '';
    const memo = this.layout.memo<Decimal | null>(reading, index);
    const known = memo.get(cell);
    if (known !== undefined) return known;
    return memo.remember(cell, this.readFigure(key, cell.trim(), read));
  }

  private readFigure(key: K, text: string, read: (text: string) => Decimal | undefined): Decimal | null {
    if (text === '' || text === '--') {
      return null;
    }
    const value = read(text);
    if (value === undefined) {
      throw ImportFileError.invalidNumber(this.fileName, this.row.line, this.specs[key].name, shorten(text));
    }
    const limit = this.specs[key].limit;
    if (value.abs().gt(limit)) {
      throw this.invalid(key, shorten(text), `'${shorten(text)}' is beyond the limit of ${limit.toFixed(0).replace(/\B(?=(\d{3})+$)/g, ',')}`);
    }
    return value;
  }
}

/** The ways RowReader reads a cell, each remembered apart (`ColumnLayout.memo`). */
const Reading = { Text: 0, Symbol: 1, Ticker: 2, Date: 3, Amount: 4, Percent: 5 } as const;
type Reading = (typeof Reading)[keyof typeof Reading];

/** How many ways there are: a memo's id is `column * READINGS + reading`, one of its own for any column. */
const READINGS = Object.keys(Reading).length;

/** How much a column's memo keeps, for one file: MEMO_LIMITS unless a test says otherwise. */
export interface MemoLimits {
  /** Texts kept at most. */
  readonly entries: number;
  /** Readings after which a memo that seldom helps (under one hit in four) is let go. */
  readonly sample: number;
}

const MEMO_LIMITS: MemoLimits = { entries: 50_000, sample: 4_096 };

/**
 * What one column's cells have read to, by their text, for one file. Values repeat down a file
 * (symbols, dates, descriptions, round quantities, common prices): the rows whose cells read the same
 * share one value (a string, an immutable Decimal, a date) instead of each holding its own copy, and a
 * repeated text is read once. A large file's rows then hold far fewer objects, which is much of an
 * import's memory and of its garbage collection (the active trader's 170,000 rows: 141 → 92 MB). A
 * column whose texts seldom repeat (amounts) is let go after a sample, so it costs a lookup and no
 * memory; only successful readings are kept, so a bad cell is refused on every row that has it.
 */
export class CellMemo<T> {
  private values: Map<string, T> | undefined = new Map();
  private readings = 0;
  private misses = 0;
  /**
   * The text read last and its value: a column's cells often repeat from one row to the next (a
   * sorted file's dates, a sale's lots), and a row may read a cell twice (its day, then its date).
   * Comparing with it costs less than the map's lookup, which hashes each row's cell anew.
   */
  private lastText: string | undefined;
  private lastValue: T | undefined;

  constructor(private readonly limits: MemoLimits = MEMO_LIMITS) {}

  /**
   * The value read from `text` before, or undefined. Every reading counts, the last text's too: a
   * file sorted by symbol (a lot details file) repeats its symbols and names in runs, which the last
   * text answers; counting only the readings that missed it judged those memos useless and let them
   * go, and the rows of every run then held their own copies (a million rows' lots: 512,000 strings,
   * 14 MB).
   */
  get(text: string): T | undefined {
    this.readings += 1;
    if (text === this.lastText) return this.lastValue;
    const values = this.values;
    if (values === undefined) return undefined;
    const value = values.get(text);
    if (value !== undefined) {
      this.lastText = text;
      this.lastValue = value;
    }
    return value;
  }

  /** Keeps `value` as what `text` reads to (while the memo is worth its keep), and returns it. */
  remember(text: string, value: T): T {
    this.lastText = text;
    this.lastValue = value;
    const values = this.values;
    if (values === undefined) return value;
    this.misses += 1;
    if (this.readings >= this.limits.sample && this.misses * 4 > this.readings * 3) this.values = undefined;
    // The text is a cell, a slice of a piece of the file's text: kept as a key, it would keep the piece
    // (a megabyte) for as long as the memo (a million rows' names held 18 pieces at once).
    else if (values.size < this.limits.entries) values.set(ownCopy(text), value);
    return value;
  }
}

/**
 * `text` in a string of its own. A cell is a slice of the file's text, and a slice keeps the whole of
 * it alive (megabytes, for as long as any row holds the cell); a remembered value is copied once.
 */
function ownCopy(text: string): string {
  // V8 copies a slice shorter than 13 characters anyway.
  return text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string);
}

/**
 * False when `cell`, normalised, cannot be `name` (a normalised header name) by its first character
 * (leading spaces skipped; ASCII letters compared without case); true when it may be.
 */
function startsLike(cell: string, name: string): boolean {
  let at = 0;
  while (at < cell.length && cell.charCodeAt(at) <= 32) at += 1;
  if (at === cell.length || name.length === 0) return at === cell.length && name.length === 0;
  const code = cell.charCodeAt(at);
  const lower = code >= 65 && code <= 90 ? code + 32 : code;
  return lower === name.charCodeAt(0) || code > 127;
}

/** A cell as quoted in a message: a 309-digit number is shown by its start. */
function shorten(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
