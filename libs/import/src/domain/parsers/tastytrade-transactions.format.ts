import type { BrokerTransaction } from '../broker-transaction.js';
import { classifyAction, isTradeKind } from '../broker-transaction.js';
import { activityExportFormat, activityRow, chargesOf, otherActivity } from './activity-export.js';
import type { BrokerageFormat } from './brokerage-format.js';
import { column, FIGURE_LIMITS, type RowReader } from './csv-columns.js';

const COLUMNS = {
  date: column('Date'),
  type: column('Type'),
  subType: column('Sub Type', false),
  action: column('Action'),
  symbol: column('Symbol'),
  instrumentType: column('Instrument Type'),
  description: column('Description'),
  value: column('Value'),
  quantity: column('Quantity', true, [], FIGURE_LIMITS.quantity),
  averagePrice: column('Average Price', true, [], FIGURE_LIMITS.price),
  commissions: column('Commissions'),
  fees: column('Fees'),
  multiplier: column('Multiplier', false),
  rootSymbol: column('Root Symbol', false),
  underlyingSymbol: column('Underlying Symbol', false),
  expirationDate: column('Expiration Date', false),
  strikePrice: column('Strike Price', false),
  callOrPut: column('Call or Put', false),
  orderNumber: column('Order #', false),
  currency: column('Currency', false),
};
type Column = keyof typeof COLUMNS;

/** Tastytrade's trade actions (both spellings: `BUY_TO_OPEN` and the older `Buy to Open`). */
const TRADE_ACTIONS: ReadonlyMap<string, string> = new Map([
  ['buy to open', 'Buy'],
  ['sell to close', 'Sell'],
  ['sell to open', 'Sell Short'],
  ['buy to close', 'Buy to Cover'],
]);

const INFO = { id: 'tastytrade-transactions', label: 'Tastytrade Transactions' };

/**
 * Tastytrade "History → Transactions" CSV: one row per transaction newest first, dates with a time
 * and offset (`2024-03-01T14:35:12-0500`), `Value` the signed principal, `Commissions` and `Fees`
 * signed (negative when charged), `Average Price` signed like the value. Equity trades count;
 * dividends are `Money Movement` rows with the Sub Type `Dividend`; options, futures, crypto,
 * deposits, interest and `Receive Deliver` rows (splits, assignments, ACATS) are kept and reported.
 * No lot details: every trade is FIFO.
 */
export const tastytradeTransactionsFormat: BrokerageFormat = activityExportFormat(INFO, 'Tastytrade', COLUMNS, readTransaction);

function actionOf(type: string, subType: string, action: string, instrument: string): string {
  const words = action.replace(/_/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase();
  if (type.toLowerCase() === 'trade') {
    const trade = TRADE_ACTIONS.get(words);
    if (trade !== undefined && instrument.toLowerCase() === 'equity') return trade;
    return otherActivity('Tastytrade', `${instrument || 'instrument'} trade`);
  }
  if (type.toLowerCase() === 'money movement' && /^dividend$/i.test(subType)) return 'Cash Dividend';
  return otherActivity('Tastytrade', subType === '' ? type : `${type} (${subType})`);
}

function readTransaction(reader: RowReader<Column>): BrokerTransaction {
  const { date } = reader.day('date');
  const type = reader.requiredText('type', 'every transaction has a type');
  const action = actionOf(type, reader.text('subType'), reader.text('action'), reader.text('instrumentType'));
  const kind = classifyAction(action);
  const symbol = kind === 'other' ? reader.symbol('symbol', false) : reader.symbol('symbol', true);
  const quantity = reader.number('quantity');
  const price = reader.number('averagePrice');
  const value = reader.number('value');
  const charged = chargesOf(reader.number('commissions'), reader.number('fees'));
  if (isTradeKind(kind) || kind === 'dividend') {
    if (symbol === '') throw reader.missing('symbol', `a ${kind === 'dividend' ? 'dividend' : 'trade'} needs a symbol`);
    if (value === null) throw reader.missing('value', `a ${kind === 'dividend' ? 'dividend' : 'trade'} needs its value`);
  }
  if (isTradeKind(kind) && (quantity === null || quantity.isZero())) throw reader.missing('quantity', 'a trade needs a number of shares');
  return activityRow(reader.line, reader.cellsJson, {
    date,
    action,
    kind,
    symbol,
    description: reader.sharedText('description'),
    quantity: quantity === null ? null : quantity.abs(),
    price: price === null ? null : price.abs(),
    fees: charged === null ? null : charged.abs(),
    // The cash the row moved: the principal and its (negative) charges.
    amount: value === null ? null : charged === null ? value : value.add(charged),
  });
}
