import { Decimal } from '@app/shared/domain';
import { classifyAction, isClosingKind, type BrokerTransaction } from '../broker-transaction.js';
import { ImportFileError } from '../import.errors.js';
import type { Steps } from '../turns.js';
import { activityRow, chargesOf, grossCash, inTimeOrder, otherActivity, readExportRows, secondOfDay } from './activity-export.js';
import type { BrokerageFormat, FormatInput, ParsedTransactionsFile } from './brokerage-format.js';
import { column, ColumnLayout, columnList, FIGURE_LIMITS, isTicker, type RowReader } from './csv-columns.js';

const COLUMNS = {
  openDatetime: column('Open Datetime'),
  closeDatetime: column('Close Datetime'),
  symbol: column('Symbol'),
  side: column('Side'),
  volume: column('Volume', true, [], FIGURE_LIMITS.quantity),
  entryPrice: column('Entry Price', true, [], FIGURE_LIMITS.price),
  exitPrice: column('Exit Price', true, [], FIGURE_LIMITS.price),
  grossPnl: column('Gross P&L'),
  commission: column('Commission', false, ['Commissions']),
  fees: column('Fees', false),
  notes: column('Notes', false),
};
type Column = keyof typeof COLUMNS;

/** Tradervue's sides: the action opening the trade and the one closing it. */
const SIDES: ReadonlyMap<string, readonly [string, string]> = new Map([
  ['l', ['Buy', 'Sell']],
  ['long', ['Buy', 'Sell']],
  ['s', ['Sell Short', 'Buy to Cover']],
  ['short', ['Sell Short', 'Buy to Cover']],
]);

/** Both executions of a trade in an option or a future: kept, counted toward nothing. */
const OTHER_INSTRUMENT = otherActivity('Tradervue', 'trade of another instrument');

/** An option's OCC symbol: its root, expiry `YYMMDD`, C or P and the strike in thousandths (`AAPL240315C00190000`). */
const OPTION = /^[A-Z.]{1,6} *\d{6}[CP]\d{8}$/;

/** How far a trade's Gross P&L may be from its average prices' per share (their rounding) and in all. */
const ROUNDING = Decimal.of('0.0001');
const CENT = Decimal.of('0.01');

const INFO = { id: 'tradervue-trades', label: 'Tradervue trades' };

/**
 * Tradervue's export of trades (`Open Datetime, Close Datetime, Symbol, Side, Volume, Exec Count,
 * Entry Price, Exit Price, Gross P&L, …`): a way over from Tradervue. Each trade becomes its opening
 * execution and, once closed, its closing one, at the trade's average prices: the opening's cash is
 * the volume times the entry price (to the cent), the closing's that and the trade's Gross P&L, so
 * that the P&L is Tradervue's to the cent; a Commission or Fees column is charged on the closing one
 * (on the opening of a trade still open).
 * A day's executions go by their times (an opening before a closing in the same second). A symbol
 * that is not a stock's (an option, a future) is kept and reported. Every trade is FIFO: trades of
 * one symbol that overlap in time may be paired otherwise than Tradervue paired them, with the same
 * total P&L.
 */
export const tradervueTradesFormat: BrokerageFormat = {
  ...INFO,
  accepted: true,
  layout: { broker: 'Tradervue', kind: 'transactions', columns: columnList(COLUMNS) },
  recognises: (cells) => ColumnLayout.of(COLUMNS, cells) !== undefined,
  parse: parseTrades,
};

function* parseTrades({ fileName, header, rows }: FormatInput): Steps<ParsedTransactionsFile> {
  const layout = ColumnLayout.of(COLUMNS, header.cells);
  if (!layout) throw new ImportFileError('IMPORT_HEADER_NOT_RECOGNISED', fileName, header.line, `not a ${INFO.label} header`);
  const read = yield* readExportRows(fileName, rows, layout, COLUMNS, readTrade);
  if (read.length === 0) throw new ImportFileError('IMPORT_NO_DATA_ROWS', fileName, header.line, 'no trades after the header');
  // Packed as every layout's rows are (`transactionWith`, in `inTimeOrder`).
  const executions = inTimeOrder(read.flat(), (tx) => (isClosingKind(tx.kind) ? 1 : 0));
  return { kind: 'transactions', format: INFO, fileName, headerLine: header.line, dataRows: executions.length, transactions: executions };
}

/** A trade's executions: its opening and, when it is closed, its closing, each with minus its second of the day in `dayOrder`. */
function readTrade(reader: RowReader<Column>): BrokerTransaction[] {
  const sideText = reader.requiredText('side', 'every trade has a side (L or S)');
  const sides = SIDES.get(sideText.toLowerCase());
  if (sides === undefined) throw reader.invalid('side', sideText, `unknown Side '${sideText}' (known: L, S, Long, Short)`);
  const symbolText = reader.text('symbol').toUpperCase();
  const stock = isTicker(symbolText) && !OPTION.test(symbolText);
  const [opening, closing] = stock ? sides : [OTHER_INSTRUMENT, OTHER_INSTRUMENT];
  const symbol = reader.symbol('symbol', false);
  if (symbol === '') throw reader.missing('symbol', 'every trade has a symbol');
  const volume = reader.number('volume')?.abs() ?? null;
  if (volume === null || volume.isZero()) throw reader.missing('volume', 'a trade needs its volume (shares)');
  const entry = reader.requiredNumber('entryPrice', 'a trade needs its entry price').abs();
  const closed = reader.text('closeDatetime') !== '';
  const charges = chargesOf(reader.number('commission'), reader.number('fees'))?.abs() ?? null;
  const long = sides[0] === 'Buy';
  // The cash the opening took (long) or brought (short), to the cent.
  const cost = volume.mul(entry).round(2);
  const notes = reader.sharedText('notes');
  const execution = (key: 'openDatetime' | 'closeDatetime', action: string, price: Decimal, amount: Decimal | null, fees: Decimal | null): BrokerTransaction => {
    const { date } = reader.day(key);
    const transaction = activityRow(reader.line, reader.cellsJson, { date, action, kind: classifyAction(action), symbol, description: notes, quantity: volume, price, fees, amount });
    return { ...transaction, dayOrder: -secondOf(reader, key) };
  };
  const charged = charges ?? Decimal.ZERO;
  // Another instrument's cash (an option's multiplier) is not the shares times the price: it is left out.
  if (!closed) return [execution('openDatetime', opening, entry, stock ? grossCash(long, cost, charges) : null, charges)];
  const open = execution('openDatetime', opening, entry, stock ? (long ? cost.neg() : cost) : null, null);
  const exit = reader.requiredNumber('exitPrice', 'a closed trade needs its exit price').abs();
  const close = (amount: Decimal | null): BrokerTransaction[] => {
    const ending = execution('closeDatetime', closing, exit, amount, charges);
    if (ending.date < open.date || (ending.date === open.date && (ending.dayOrder as number) > (open.dayOrder as number))) {
      throw reader.invalid('closeDatetime', reader.text('closeDatetime'), `the trade closes (${reader.text('closeDatetime')}) before it opens (${reader.text('openDatetime')})`);
    }
    return [open, ending];
  };
  if (!stock) return close(null);
  const gross = reader.requiredNumber('grossPnl', 'a closed trade needs its Gross P&L');
  // The prices are averages to a few decimals: the gross they give may differ from Tradervue's by their rounding, not more.
  const priced = exit.sub(entry).mul(volume).mul(long ? 1 : -1);
  if (priced.sub(gross).abs().gt(volume.mul(ROUNDING).add(CENT))) {
    throw reader.invalid('grossPnl', gross.toString(), `a Gross P&L of ${gross.toFixed(2)} does not go with ${volume.toString()} shares from ${entry.toString()} to ${exit.toString()} (${priced.toFixed(2)})`);
  }
  // The closing's cash: what makes the trade's P&L Tradervue's gross, less the charges.
  const settled = (long ? cost.add(gross) : cost.sub(gross).neg()).sub(charged);
  return close(settled);
}

/** The second of the day of `2025-10-24 08:00:00` (a date alone: the day's start). */
function secondOf(reader: RowReader<Column>, key: 'openDatetime' | 'closeDatetime'): number {
  const text = reader.text(key);
  const time = text.split(/[ T]/)[1];
  if (time === undefined) return 0;
  const second = secondOfDay(time);
  if (second === undefined) throw reader.invalid(key, text, `'${text}' is not a date and time (YYYY-MM-DD HH:MM:SS)`);
  return second;
}
