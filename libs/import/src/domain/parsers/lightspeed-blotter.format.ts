import type { BrokerTransaction } from '../broker-transaction.js';
import { classifyAction, isClosingKind } from '../broker-transaction.js';
import { activityExportFormat, activityRow, chargesOf, inTimeOrder, otherActivity, secondOfDay, tradeCash } from './activity-export.js';
import type { BrokerageFormat } from './brokerage-format.js';
import { column, FIGURE_LIMITS, type RowReader } from './csv-columns.js';

const COLUMNS = {
  accountNumber: column('Account Number'),
  side: column('Side', false),
  symbol: column('Symbol'),
  currency: column('Currency Code', false),
  securityType: column('Security Type', false),
  buySell: column('Buy/Sell'),
  tradeDate: column('Trade Date'),
  price: column('Price', true, [], FIGURE_LIMITS.price),
  quantity: column('Qty', true, [], FIGURE_LIMITS.quantity),
  tradeNumber: column('Trade Number'),
  netAmount: column('NET Amount'),
  commission: column('Commission Amount'),
  executionTime: column('Execution Time', false),
  rawExecTime: column('Raw Exec. Time', false),
  feeSec: column('FeeSEC', false),
  feeMf: column('FeeMF', false),
  fee1: column('Fee1', false),
  fee2: column('Fee2', false),
  fee3: column('Fee3', false),
  feeStamp: column('FeeStamp', false),
  feeTaf: column('FeeTAF', false),
  fee4: column('Fee4', false),
  transType: column('Transtype', false),
};
type Column = keyof typeof COLUMNS;

/** Lightspeed's `Buy/Sell` words (and, where it is blank, the `Side` letter), as the import's action words. */
const SIDES: ReadonlyMap<string, string> = new Map([
  ['long buy', 'Buy'],
  ['buy', 'Buy'],
  ['b', 'Buy'],
  ['long sell', 'Sell'],
  ['sell', 'Sell'],
  ['s', 'Sell'],
  ['short sell', 'Sell Short'],
  ['short cover', 'Buy to Cover'],
  ['short buy', 'Buy to Cover'],
]);

const INFO = { id: 'lightspeed-blotter', label: 'Lightspeed Execution Blotter' };

/**
 * Lightspeed's execution blotter (`…_table_execution_blotter.csv`, 46 columns, every cell quoted and
 * padded with spaces): one fill per row of one account (`Account Number`), its direction in `Buy/Sell`
 * (`Long Buy`, `Long Sell`, `Short Sell`, `Short Cover`), sales with a negative `Qty`, `NET Amount`
 * the cash with every charge (positive paid, negative received), the charges in `Commission Amount`
 * and the `Fee…` columns, the time in `Raw Exec. Time` (`MM/DD/YYYY HH:MM:SS`, to the minute) or
 * `Execution Time` (`HH:MM`). Fills of one minute are listed in no reliable order, so a day's fills go
 * by their times and, within a minute, the ones opening a position before the ones closing one, each
 * in file order: a position never passes through a phantom short and a minute's P&L is exact (which of
 * its purchases a sale of the same minute closes follows the file). Options (`Security Type` other than
 * `equity`), other currencies and other transaction types are kept and reported. No lot details: every
 * trade is FIFO.
 */
export const lightspeedBlotterFormat: BrokerageFormat = activityExportFormat(INFO, 'Lightspeed', COLUMNS, readTransaction, {
  accountColumn: 'accountNumber',
  complete: (transactions) => inTimeOrder(transactions, (tx) => (isClosingKind(tx.kind) ? 1 : 0)),
});

function readTransaction(reader: RowReader<Column>): BrokerTransaction {
  const { date } = reader.day('tradeDate');
  const written = reader.text('buySell') || reader.text('side');
  const side = SIDES.get(written.replace(/\s+/g, ' ').toLowerCase());
  if (side === undefined) {
    throw written === '' ? reader.missing('buySell', 'every fill says whether it bought or sold') : reader.invalid('buySell', written, `unknown Buy/Sell '${written}' (known: Long Buy, Long Sell, Short Sell, Short Cover)`);
  }
  const action = actionOf(reader, side);
  const kind = classifyAction(action);
  const symbol = reader.symbol('symbol', kind !== 'other');
  if (symbol === '' && kind !== 'other') throw reader.missing('symbol', 'every fill has a symbol');
  const quantity = reader.number('quantity');
  const price = reader.number('price');
  const fees = chargesOf(...(['commission', 'feeSec', 'feeMf', 'fee1', 'fee2', 'fee3', 'feeStamp', 'feeTaf', 'fee4'] as const).map((key) => reader.number(key)));
  const net = reader.number('netAmount');
  let amount = net === null ? null : net.neg();
  if (kind !== 'other') {
    if (quantity === null || quantity.isZero()) throw reader.missing('quantity', 'a fill needs a number of shares');
    if (price === null) throw reader.missing('price', 'a fill needs its price');
    amount ??= tradeCash(kind === 'buy' || kind === 'buy_to_cover', quantity, price, fees);
  }
  const transaction = activityRow(reader.line, reader.cellsJson, {
    date,
    action,
    kind,
    symbol,
    description: `Trade ${reader.requiredText('tradeNumber', 'every fill has its trade number')}`,
    quantity: quantity === null ? null : quantity.abs(),
    price: price === null ? null : price.abs(),
    fees,
    amount,
  });
  // The second of the day, of which `inTimeOrder` makes the row's day order (higher = earlier).
  return { ...transaction, dayOrder: -secondOf(reader) };
}

/** The fill's action: its side for a US-dollar stock trade, else what the import keeps and reports. */
function actionOf(reader: RowReader<Column>, side: string): string {
  const transType = reader.text('transType');
  if (transType !== '' && transType.toLowerCase() !== 'trade') {
    // Kept under words that never read as a dividend or a trade.
    const kept = otherActivity('Lightspeed', `${transType} entry`);
    return classifyAction(kept) === 'other' ? kept : otherActivity('Lightspeed', 'entry of another type');
  }
  const type = reader.text('securityType').toLowerCase();
  if (type !== '' && type !== 'equity') return otherActivity('Lightspeed', `${type === 'option' ? 'option' : 'other instrument'} trade`);
  const currency = reader.text('currency').toUpperCase();
  return currency === '' || currency === 'USD' ? side : otherActivity('Lightspeed', `trade in ${currency}`);
}

/** The fill's second of the day, from `Raw Exec. Time` (`06/09/2026 07:55:00`) or else `Execution Time` (`07:55`). */
function secondOf(reader: RowReader<Column>): number {
  const raw = reader.text('rawExecTime');
  const key: Column = raw !== '' ? 'rawExecTime' : 'executionTime';
  const text = raw !== '' ? (raw.split(/\s+/).at(-1) as string) : reader.requiredText('executionTime', 'every fill needs its time (Raw Exec. Time or Execution Time)');
  const second = secondOfDay(text);
  if (second === undefined) throw reader.invalid(key, raw || text, `'${raw || text}' is not a time of day (MM/DD/YYYY HH:MM:SS or HH:MM)`);
  return second;
}
