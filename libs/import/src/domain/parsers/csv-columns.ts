import { isSupportedDate, parseBrokerDate, SUPPORTED_DATES, type BrokerDate } from '@app/shared/domain';
import { Decimal } from '@app/shared/domain';
import { ImportFileError } from '../import.errors.js';
import type { CsvRow } from './csv-text.js';

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

export interface ColumnSpec {
  /** The name shown in error messages, as the broker writes it. */
  readonly name: string;
  /** Accepted header spellings, normalised. */
  readonly aliases: readonly string[];
  readonly required: boolean;
}

export function column(name: string, required = true, aliases: readonly string[] = []): ColumnSpec {
  return { name, required, aliases: [normaliseHeaderCell(name), ...aliases.map(normaliseHeaderCell)] };
}

/** Where each known column sits in one file's header. */
export class ColumnLayout<K extends string> {
  private constructor(
    private readonly indexes: ReadonlyMap<K, number>,
    private readonly names: readonly string[],
  ) {}

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
  isHeaderAgain(cells: readonly string[]): boolean {
    // Cheap first-cell test: this runs on every row.
    if (cells.length === 0 || normaliseHeaderCell(cells[0]) !== this.names[0]) {
      return false;
    }
    const names = headerNames(cells);
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
    const cells = row.cells;
    if (cells.length < layout.width) {
      throw ImportFileError.malformedCsv(fileName, row.line, `expected ${layout.width} columns, found ${cells.length}`);
    }
    if (cells.slice(layout.width).some((cell) => cell.trim() !== '')) {
      throw ImportFileError.malformedCsv(fileName, row.line, `found ${cells.length} columns, the header has ${layout.width}`);
    }
  }

  get line(): number {
    return this.row.line;
  }

  /** The cell trimmed; '' when empty or the column is absent. */
  text(key: K): string {
    const index = this.layout.index(key);
    return index === undefined ? '' : (this.row.cells[index] ?? '').trim();
  }

  requiredText(key: K, why = ''): string {
    const value = this.text(key);
    if (value === '') {
      throw this.missing(key, why);
    }
    return value;
  }

  /** A money or quantity figure (`$1,234.56`, `($5.00)`, `10,153.89`); null when empty. */
  number(key: K): Decimal | null {
    return this.figure(key, (text) => Decimal.tryParseMoney(text));
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
    return this.figure(key, (text) => Decimal.tryParsePercent(text));
  }

  date(key: K): BrokerDate {
    const text = this.requiredText(key);
    const parsed = parseBrokerDate(text);
    if (!parsed) {
      throw ImportFileError.invalidDate(this.fileName, this.row.line, this.specs[key].name, text);
    }
    if (!isSupportedDate(parsed.date) || (parsed.asOf !== null && !isSupportedDate(parsed.asOf))) {
      throw this.invalid(key, text, `'${text}' is outside the supported dates, ${SUPPORTED_DATES}`);
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

  private figure(key: K, read: (text: string) => Decimal | undefined): Decimal | null {
    const text = this.text(key);
    if (text === '' || text === '--') {
      return null;
    }
    const value = read(text);
    if (value === undefined) {
      throw ImportFileError.invalidNumber(this.fileName, this.row.line, this.specs[key].name, text);
    }
    return value;
  }
}
