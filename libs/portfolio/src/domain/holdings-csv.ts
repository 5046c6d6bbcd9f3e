import Papa from 'papaparse';
import { tryParseAmount } from '@app/import/domain';
import { Decimal, decimalPlaces } from '@app/shared/domain';
import { holdingTypeFromCsv, type HoldingType } from './holding-type.js';
import { normalizeSymbol } from './symbol.js';

/** One valid row of a holdings CSV. Optional fields are absent when the file leaves them empty. */
export interface HoldingImportRow {
  /** Line number in the file (the header is line 1). */
  readonly line: number;
  readonly symbol: string;
  readonly shares: Decimal;
  readonly averageCost?: Decimal;
  readonly holdingType?: HoldingType;
  readonly purchaseDate?: string;
  readonly notes?: string;
}

export interface HoldingsCsv {
  readonly rows: HoldingImportRow[];
  /** `Row N: reason`, N the line number in the file. */
  readonly errors: string[];
}

/** The file as a whole cannot be used; the message says why. */
export class HoldingsCsvFormatError extends Error {}

const COLUMN_ALIASES: Record<string, string> = { security_type: 'type', holding_type: 'type', type: 'type' };
const KNOWN_COLUMNS = ['symbol', 'shares', 'cost_basis', 'average_cost', 'type', 'purchase_date', 'notes'];
const MAX_SHARE_DECIMALS = 6;
const MAX_NOTES = 1000;

/**
 * Reads a holdings CSV (../shared/spec/interface.md "Portfolio CSV columns", ../shared/spec/decisions.md §5): header names are
 * case-insensitive (spaces and hyphens count as underscores), `symbol` and `shares` are required,
 * `cost_basis` is a total (average cost = cost basis ÷ shares), `average_cost` wins when both are given.
 * Bad rows become `Row N: reason` errors; the good rows are returned.
 */
export function parseHoldingsCsv(text: string): HoldingsCsv {
  const records = readRecords(text.replace(/^\uFEFF/, ''));
  const header = records.shift();
  if (header === undefined) throw new HoldingsCsvFormatError('The CSV file is empty');

  const columns = new Map<string, number>();
  header.cells.forEach((name, index) => {
    const key = name.trim().toLowerCase().replace(/[\s-]+/g, '_');
    const column = COLUMN_ALIASES[key] ?? key;
    // The first of `security_type`/`holding_type`/`type` with a value wins per row; keep them all.
    if (column === 'type') columns.set(`type:${index}`, index);
    else if (KNOWN_COLUMNS.includes(column) && !columns.has(column)) columns.set(column, index);
  });
  const missing = ['symbol', 'shares'].filter((name) => !columns.has(name));
  if (missing.length > 0) {
    throw new HoldingsCsvFormatError(
      `The CSV file needs the columns symbol and shares (missing: ${missing.join(', ')}); found: ${header.cells.join(', ') || 'nothing'}`,
    );
  }
  const typeColumns = [...columns.entries()].filter(([name]) => name.startsWith('type:')).map(([, index]) => index);

  const rows: HoldingImportRow[] = [];
  const errors: string[] = [];
  const seen = new Map<string, number>();
  for (const record of records) {
    if (record.cells.every((cell) => cell.trim() === '')) continue;
    const cell = (name: string): string => {
      const index = columns.get(name);
      return index === undefined ? '' : (record.cells[index] ?? '').trim();
    };
    const result = readRow(record.line, cell, typeColumns.map((index) => (record.cells[index] ?? '').trim()));
    if (typeof result === 'string') {
      errors.push(`Row ${record.line}: ${result}`);
      continue;
    }
    const earlier = seen.get(result.symbol);
    if (earlier !== undefined) {
      errors.push(`Row ${record.line}: duplicate symbol ${result.symbol} (first on row ${earlier})`);
      continue;
    }
    seen.set(result.symbol, record.line);
    rows.push(result);
  }
  if (rows.length === 0 && errors.length === 0) throw new HoldingsCsvFormatError('The CSV file has no data rows');
  return { rows, errors };
}

function readRow(line: number, cell: (name: string) => string, typeCells: string[]): HoldingImportRow | string {
  const symbolCell = cell('symbol');
  if (symbolCell === '') return 'symbol is missing';
  const symbol = normalizeSymbol(symbolCell);
  if (symbol === undefined) return `invalid symbol '${symbolCell}'`;

  const sharesCell = cell('shares');
  if (sharesCell === '') return 'shares is missing';
  const shares = tryParseAmount(sharesCell);
  if (shares === undefined) return `invalid shares value '${sharesCell}'`;
  if (!shares.isPositive()) return `shares must be greater than 0 (got '${sharesCell}')`;
  if (decimalPlaces(shares) > MAX_SHARE_DECIMALS) return `shares may have at most ${MAX_SHARE_DECIMALS} decimals (got '${sharesCell}')`;

  let averageCost: Decimal | undefined;
  const averageCell = cell('average_cost');
  const basisCell = cell('cost_basis');
  if (averageCell !== '') {
    averageCost = tryParseAmount(averageCell);
    if (averageCost === undefined) return `invalid average_cost value '${averageCell}'`;
    if (averageCost.isNegative()) return `average_cost must not be negative (got '${averageCell}')`;
  } else if (basisCell !== '') {
    const basis = tryParseAmount(basisCell);
    if (basis === undefined) return `invalid cost_basis value '${basisCell}'`;
    if (basis.isNegative()) return `cost_basis must not be negative (got '${basisCell}')`;
    averageCost = basis.div(shares);
  }

  let holdingType: HoldingType | undefined;
  const typeCell = typeCells.find((value) => value !== '');
  if (typeCell !== undefined) {
    holdingType = holdingTypeFromCsv(typeCell);
    if (holdingType === undefined) return `unknown security type '${typeCell}' (use STOCK, EQUITY, ETF, MUTUAL FUND or MF)`;
  }

  let purchaseDate: string | undefined;
  const dateCell = cell('purchase_date');
  if (dateCell !== '') {
    purchaseDate = parseCsvDate(dateCell);
    if (purchaseDate === undefined) return `invalid purchase_date '${dateCell}' (use YYYY-MM-DD or MM/DD/YYYY)`;
  }

  const notes = cell('notes');
  if (notes.length > MAX_NOTES) return `notes are longer than ${MAX_NOTES} characters`;

  return {
    line,
    symbol,
    shares,
    ...(averageCost !== undefined && { averageCost }),
    ...(holdingType !== undefined && { holdingType }),
    ...(purchaseDate !== undefined && { purchaseDate }),
    ...(notes !== '' && { notes }),
  };
}

/** `YYYY-MM-DD` or `MM/DD/YYYY`, a real calendar day. */
export function parseCsvDate(text: string): string | undefined {
  let year: number;
  let month: number;
  let day: number;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (iso) [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (us) [year, month, day] = [Number(us[3]), Number(us[1]), Number(us[2])];
  else return undefined;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return date.toISOString().slice(0, 10);
}

interface CsvRecord {
  line: number;
  cells: string[];
}

/** CSV records with the file line each starts on (quoted cells may span lines). */
function readRecords(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let line = 1;
  let consumed = 0;
  Papa.parse<string[]>(text, {
    header: false,
    skipEmptyLines: false,
    step: (result) => {
      const cursor = result.meta.cursor;
      const chunk = text.slice(consumed, cursor);
      const leading = /^[\r\n]*/.exec(chunk)?.[0] ?? '';
      const startLine = line + countLineBreaks(leading);
      records.push({ line: startLine, cells: result.data });
      line += countLineBreaks(chunk);
      consumed = cursor;
    },
  });
  return records;
}

function countLineBreaks(text: string): number {
  return (text.match(/\r\n|\r|\n/g) ?? []).length;
}
