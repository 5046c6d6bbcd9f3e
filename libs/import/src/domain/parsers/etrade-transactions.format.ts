import type { BrokerTransaction } from '../broker-transaction.js';
import { classifyAction, isTradeKind } from '../broker-transaction.js';
import { activityExportFormat, activityRow, otherActivity } from './activity-export.js';
import type { BrokerageFormat } from './brokerage-format.js';
import { column, FIGURE_LIMITS, type RowReader } from './csv-columns.js';

const COLUMNS = {
  date: column('TransactionDate', true, ['Activity/Trade Date']),
  type: column('TransactionType', true, ['Activity Type']),
  securityType: column('SecurityType', false),
  symbol: column('Symbol'),
  quantity: column('Quantity', true, ['Quantity #'], FIGURE_LIMITS.quantity),
  amount: column('Amount', true, ['Amount $']),
  price: column('Price', true, ['Price $'], FIGURE_LIMITS.price),
  commission: column('Commission', true),
  description: column('Description'),
};
type Column = keyof typeof COLUMNS;

/** E*TRADE's transaction types, as the import's action words (compared in lower case). */
const ACTIONS: ReadonlyMap<string, string> = new Map([
  ['bought', 'Buy'],
  ['sold', 'Sell'],
  ['sold short', 'Sell Short'],
  ['bought to cover', 'Buy to Cover'],
  ['dividend', 'Cash Dividend'],
  ['qualified dividend', 'Qualified Dividend'],
  ['dividend reinvestment', 'Reinvest Shares'],
  ['capital gain', 'Cap Gain'],
]);

/** Security types that are not shares (options, bonds): their rows are kept and reported. */
const NOT_SHARES = new Set(['OPTN', 'BOND']);

const INFO = { id: 'etrade-transactions', label: 'E*TRADE Transactions' };

/**
 * E*TRADE "Transaction History" download (`DownloadTxnHistory.csv`): label lines (`For Account:`,
 * `Downloaded Date:`) before the header, one row per transaction newest first, dates `MM/DD/YY`,
 * sales with a negative Quantity, signed amounts net of commission. Both the classic column names
 * (`TransactionDate`, `TransactionType`, `SecurityType`) and the current ones (`Activity/Trade Date`,
 * `Activity Type`, `Quantity #`, `Price $`, `Amount $`) are read. The account is the `For Account:` line's
 * (masked digits as X). No lot details: every trade is FIFO.
 */
export const etradeTransactionsFormat: BrokerageFormat = activityExportFormat(INFO, 'E*TRADE', COLUMNS, readTransaction, { accountTitle: /^for account:?$/i });

function readTransaction(reader: RowReader<Column>): BrokerTransaction {
  const { date } = reader.date('date');
  const type = reader.requiredText('type', 'every transaction has a type').replace(/\s+/g, ' ');
  const securityType = reader.text('securityType').toUpperCase();
  const mapped = ACTIONS.get(type.toLowerCase());
  const action = mapped === undefined || NOT_SHARES.has(securityType) ? otherActivity('E*TRADE', securityType === '' ? type : `${type} (${securityType})`) : mapped;
  const kind = classifyAction(action);
  const symbol = kind === 'other' ? reader.symbol('symbol', false) : reader.symbol('symbol', true);
  const quantity = reader.number('quantity');
  const price = reader.number('price');
  const amount = reader.number('amount');
  const commission = reader.number('commission');
  if (isTradeKind(kind)) {
    if (symbol === '') throw reader.missing('symbol', `a ${type} needs a symbol`);
    if (quantity === null || quantity.isZero()) throw reader.missing('quantity', `a ${type} needs a number of shares`);
    if (amount === null) throw reader.missing('amount', `a ${type} needs its amount`);
  }
  return activityRow(reader.line, reader.cellsJson, {
    date,
    action,
    kind,
    symbol,
    description: reader.sharedText('description'),
    // E*TRADE writes sales with a negative quantity: the type gives the direction.
    quantity: quantity === null ? null : quantity.abs(),
    price,
    fees: commission === null ? null : commission.abs(),
    amount,
  });
}
