import { Decimal } from '@app/shared/domain';
import { compareInTimeOrder, packedTransaction, transactionWith, type BrokerTransaction } from '../broker-transaction.js';
import { ImportFileError } from '../import.errors.js';
import { ROWS_PER_TURN, type Steps } from '../turns.js';
import type { BrokerageFormat, FormatInfo, FormatInput, ParsedTransactionsFile } from './brokerage-format.js';
import { ColumnLayout, columnList, RowReader, type ColumnSpec } from './csv-columns.js';
import { cellOf, widthOf, type CsvRow } from './csv-text.js';

/**
 * A row with at most one non-empty cell: a disclaimer or "Date downloaded" line, a section's title. Its
 * cells are read one by one up to the second filled one (`cellOf`): every data row is asked, and making
 * all its cells for it undid what a plain record saves (csv-text.ts `PlainRecord`).
 */
export function isNote(row: CsvRow): boolean {
  let filled = 0;
  for (let index = 0, width = widthOf(row); index < width; index += 1) {
    if ((cellOf(row, index) as string).trim() !== '' && ++filled > 1) return false;
  }
  return true;
}

/** How a layout's rows are read beyond the row itself. */
export interface ActivityExportOptions<K extends string = string> {
  /** The layout lists a day oldest first (its rows get a `dayOrder`); the default is newest first. */
  readonly oldestFirst?: boolean;
  /** A pass over the whole file after its rows are read (what one row cannot tell, such as a cover), given the file's columns. */
  readonly complete?: (transactions: BrokerTransaction[], layout: ColumnLayout<K>) => BrokerTransaction[];
  /** The column naming each row's account (a file of one account: several are refused). */
  readonly accountColumn?: string;
  /** The account a title line names (`For Account:,####5678`). */
  readonly accountTitle?: RegExp;
}

/** An account number as a file writes it, masked digits (`####5678`, `****5678`) as X. */
export function accountNumberOf(text: string): string | undefined {
  const number = text.trim().replace(/[#*]/g, 'X');
  return number === '' ? undefined : number;
}

/**
 * The data rows of an export that may end with disclaimer lines, each read by `read` (with its layout's
 * RowReader): note rows before the first data row are skipped, and after it they close the data (a data
 * row after them is refused, as is the header repeated). Yields every ROWS_PER_TURN rows, telling
 * `soFar` the rows read until then.
 */
export function* readExportRows<K extends string, T>(
  fileName: string,
  rows: FormatInput['rows'],
  layout: ColumnLayout<K>,
  specs: Readonly<Record<K, ColumnSpec>>,
  read: (reader: RowReader<K>) => T,
  soFar?: (found: readonly T[]) => void,
): Steps<T[]> {
  const found: T[] = [];
  let ended = false;
  for (const [index, row] of rows.entries()) {
    if (index > 0 && index % ROWS_PER_TURN === 0) {
      soFar?.(found);
      yield;
    }
    if (isNote(row)) {
      ended = found.length > 0;
      continue;
    }
    if (ended) {
      throw ImportFileError.malformedCsv(fileName, row.line, 'a data row after the closing disclaimer');
    }
    if (layout.isHeaderAgain(row)) {
      throw ImportFileError.repeatedHeader(fileName, row.line);
    }
    found.push(read(new RowReader(fileName, row, layout, specs)));
  }
  return found;
}

/**
 * Reads an activity export (one transaction per row, then disclaimer lines) with `readExportRows`,
 * each data row through `read`; the options say what else the layout carries. The rows are packed as
 * Schwab's are (`packedTransaction`): a plain object of eleven fields and four `Decimal`s for each row
 * held until the import's end was most of an activity export's memory, and code reading the rows met
 * two shapes of them (docs/imports.md).
 */
export function* parseActivityExport<K extends string>(
  info: FormatInfo,
  { fileName, titles = [], header, rows }: FormatInput,
  specs: Readonly<Record<K, ColumnSpec>>,
  read: (reader: RowReader<K>) => BrokerTransaction,
  options: ActivityExportOptions<K> = {},
): Steps<ParsedTransactionsFile> {
  const layout = ColumnLayout.of(specs, header.cells);
  if (!layout) {
    throw new ImportFileError('IMPORT_HEADER_NOT_RECOGNISED', fileName, header.line, `not a ${info.label} header`);
  }
  const accounts = new Set<string>();
  const accountColumn = options.accountColumn as K | undefined;
  const transactions = yield* readExportRows(fileName, rows, layout, specs, (reader) => {
    const transaction = read(reader);
    const account = accountColumn === undefined ? undefined : accountNumberOf(reader.text(accountColumn));
    if (account !== undefined && !accounts.has(account)) {
      accounts.add(account);
      if (accounts.size > 1) {
        throw ImportFileError.malformedCsv(fileName, reader.line, `the file holds several accounts (${[...accounts].join(', ')}); export one account per file`);
      }
    }
    return packedTransaction(transaction, { dayOrder: transaction.dayOrder ?? (options.oldestFirst ? -transaction.line : undefined) });
  });
  if (transactions.length === 0) {
    throw new ImportFileError('IMPORT_NO_DATA_ROWS', fileName, header.line, 'no activity after the header');
  }
  const complete = options.complete?.(transactions, layout) ?? transactions;
  const titled = options.accountTitle === undefined ? undefined : titles.map((title) => accountTitleOf(title.cells, options.accountTitle as RegExp)).find((number) => number !== undefined);
  const accountNumber = [...accounts][0] ?? titled;
  return { kind: 'transactions', format: info, fileName, headerLine: header.line, dataRows: complete.length, transactions: complete, ...(accountNumber === undefined ? {} : { accountNumber }) };
}

/** A transaction of an activity export: the row's line and cells as JSON text (`RowReader.cellsJson`), the rest as the layout read it. */
export function activityRow(
  line: number,
  cellsJson: string,
  fields: Pick<BrokerTransaction, 'date' | 'action' | 'kind' | 'symbol' | 'description' | 'quantity' | 'price' | 'fees' | 'amount'>,
): BrokerTransaction {
  return { line, asOfDate: null, ...fields, cellsJson, fingerprint: undefined };
}

/** The sum of the charges a row gives (commission, fees …, signed as written); null when it gives none. */
export function chargesOf(...figures: (Decimal | null)[]): Decimal | null {
  const given = figures.filter((figure): figure is Decimal => figure !== null);
  return given.length === 0 ? null : Decimal.sum(given);
}

/** The value after a title line's label, when the label is the one wanted. */
function accountTitleOf(cells: readonly string[], label: RegExp): string | undefined {
  const filled = cells.map((cell) => cell.trim()).filter((cell) => cell !== '');
  return filled.length === 2 && label.test(filled[0]) ? accountNumberOf(filled[1]) : undefined;
}

/**
 * A broker's activity export as a layout: recognised by its columns, read by `parseActivityExport`
 * with the layout's own row reader.
 */
export function activityExportFormat<K extends string>(
  info: FormatInfo,
  broker: string,
  specs: Readonly<Record<K, ColumnSpec>>,
  read: (reader: RowReader<K>) => BrokerTransaction,
  options: ActivityExportOptions<K> = {},
): BrokerageFormat {
  return {
    ...info,
    accepted: true,
    layout: { broker, kind: 'transactions', columns: columnList(specs) },
    recognises: (headerCells) => ColumnLayout.of(specs, headerCells) !== undefined,
    parse: (input: FormatInput) => parseActivityExport(info, input, specs, read, options),
  };
}

/**
 * The cash a trade moved, for a file that gives none: its shares times its price (`grossCash` of that).
 */
export function tradeCash(buying: boolean, quantity: Decimal, price: Decimal, charges: Decimal | null): Decimal {
  return grossCash(buying, quantity.abs().mul(price.abs()), charges);
}

/**
 * The cash a trade of `gross` (its shares' worth, unsigned) moved: plus the charges on a purchase (paid
 * out), less them on a sale (brought in), signed as the import stores amounts.
 */
export function grossCash(buying: boolean, gross: Decimal, charges: Decimal | null): Decimal {
  const charged = charges ?? Decimal.ZERO;
  return buying ? gross.add(charged).neg() : gross.sub(charged);
}

/**
 * A trade's cash for a file whose amounts are signed loosely: the amount written, signed by the trade's
 * action whatever its sign in the file; where the file gives none (or 0), `tradeCash` of its shares,
 * price and charges (a missing price refused, in the row's `priceKey` column).
 */
export function signedTradeCash<K extends string>(
  reader: RowReader<K>,
  priceKey: K,
  buying: boolean,
  written: Decimal | null,
  quantity: Decimal,
  price: Decimal | null,
  charges: Decimal | null,
): Decimal {
  if (written !== null && !written.isZero()) return buying ? written.abs().neg() : written.abs();
  if (price === null) throw reader.missing(priceKey, 'a trade without an amount needs its price');
  return tradeCash(buying, quantity, price, charges);
}

/** `09:47:59`, `9:47`, `09:47:59.120`, `2:05:00 PM`. */
const TIME_OF_DAY = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*([AP]M)?$/i;

/** The second of the day a time gives (`TIME_OF_DAY`); undefined when the text is not a time of day. */
export function secondOfDay(text: string): number | undefined {
  const parts = TIME_OF_DAY.exec(text.trim());
  if (parts === null) return undefined;
  const [hours, minutes, seconds] = [Number(parts[1]), Number(parts[2]), Number(parts[3] ?? 0)];
  const meridiem = parts[4]?.toUpperCase();
  if ((meridiem === undefined ? hours > 23 : hours < 1 || hours > 12) || minutes > 59 || seconds > 59) return undefined;
  const hour = meridiem === undefined ? hours : (hours % 12) + (meridiem === 'PM' ? 12 : 0);
  return hour * 3600 + minutes * 60 + seconds;
}

/** A broker's name for a row the import keeps but counts toward nothing (docs/formats.md). */
export function otherActivity(broker: string, what: string): string {
  return `${broker} ${what.trim().replace(/\s+/g, ' ')}`;
}

/**
 * For a layout whose files may list either way: each row's day order as its file runs, newest first
 * when the first row's day is later than the last's, oldest first when it is earlier, and as
 * `oldestFirstInOneDay` says when the file holds one day.
 */
export function inFileDirection(oldestFirstInOneDay: boolean): (transactions: BrokerTransaction[]) => BrokerTransaction[] {
  return (transactions) => {
    const first = transactions[0].date;
    const last = transactions[transactions.length - 1].date;
    const oldestFirst = first === last ? oldestFirstInOneDay : first < last;
    return transactions.map((tx) => {
      const dayOrder = oldestFirst ? -tx.line : undefined;
      return tx.dayOrder === dayOrder ? tx : transactionWith(tx, { dayOrder });
    });
  };
}

/** Rows of one day and second beyond this many keep the same day order. */
const PER_SECOND = 1000;

/**
 * Each row's day order from its time, for a layout whose rows were read with minus their second of
 * the day in `dayOrder`: the second, then the row's place among the file's rows of that day and
 * second, the earliest highest. The place is by `rank` (a small whole number, lower first), then by
 * the file's order. It is the time itself, so that a day's rows from two uploads are matched again in
 * the order of their times.
 */
export function inTimeOrder(transactions: BrokerTransaction[], rank: (tx: BrokerTransaction) => number = () => 0): BrokerTransaction[] {
  const ranks = transactions.map(rank);
  const seconds = transactions.map((tx) => -(tx.dayOrder as number));
  const ats = transactions.map((tx, index) => `${tx.date} ${seconds[index]}`);
  // Per day and second, the rows of each rank: counted as they come, each row's place among its rank.
  const counts = new Map<string, number[]>();
  const places = ranks.map((own, index) => {
    let byRank = counts.get(ats[index]);
    if (byRank === undefined) counts.set(ats[index], (byRank = []));
    const place = byRank[own] ?? 0;
    byRank[own] = place + 1;
    return place;
  });
  return transactions.map((tx, index) => {
    const byRank = counts.get(ats[index]) as number[];
    let place = places[index];
    for (let lower = 0; lower < ranks[index]; lower += 1) place += byRank[lower] ?? 0;
    return transactionWith(tx, { dayOrder: -(seconds[index] * PER_SECOND + Math.min(place, PER_SECOND - 1)) });
  });
}

/**
 * For a layout that writes a cover as a plain `Buy` (Webull, moomoo): a Buy that (partly) closes a
 * short position the file has opened is a cover. A short opened in an earlier upload is not seen.
 */
export function markCovers(transactions: BrokerTransaction[]): BrokerTransaction[] {
  const position = new Map<string, Decimal>();
  const covers = new Set<BrokerTransaction>();
  for (const tx of [...transactions].sort(compareInTimeOrder)) {
    if (tx.quantity === null) continue;
    const held = position.get(tx.symbol) ?? Decimal.ZERO;
    if (tx.kind === 'buy' && held.isNegative()) covers.add(tx);
    const change = tx.kind === 'buy' ? tx.quantity : tx.kind === 'sell' || tx.kind === 'sell_short' ? tx.quantity.neg() : Decimal.ZERO;
    position.set(tx.symbol, held.add(change));
  }
  return transactions.map((tx) => (covers.has(tx) ? transactionWith(tx, { action: 'Buy to Cover', kind: 'buy_to_cover' }) : tx));
}
