import type { BrokerTransaction } from '../broker-transaction.js';
import { classifyAction, isTradeKind } from '../broker-transaction.js';
import { activityExportFormat, activityRow, inFileDirection, otherActivity, signedTradeCash } from './activity-export.js';
import type { BrokerageFormat } from './brokerage-format.js';
import { column, FIGURE_LIMITS, type RowReader } from './csv-columns.js';

const COLUMNS = {
  tradeDate: column('Trade Date'),
  settlementDate: column('Settlement Date', false),
  status: column('Pending/Settled', false),
  nickname: column('Account Nickname', false),
  registration: column('Account Registration', false),
  accountNumber: column('Account #'),
  type: column('Type'),
  what: column('Description 1'),
  description: column('Description 2'),
  symbol: column('Symbol/CUSIP #'),
  quantity: column('Quantity', true, [], FIGURE_LIMITS.quantity),
  price: column('Price ($)', true, [], FIGURE_LIMITS.price),
  amount: column('Amount ($)'),
};
type Column = keyof typeof COLUMNS;

/** Merrill's trades, as the import's action words (compared in lower case, single spaces). */
const TRADES: ReadonlyMap<string, string> = new Map([
  ['purchase', 'Buy'],
  ['sale', 'Sell'],
]);

/** A dividend reinvested: `Reinvestment Share(s)`, `Reinvestment Program` … with the shares it bought. */
const REINVESTMENT = /^reinvest/i;

/**
 * What a row naming a dividend becomes when it pays no cash: mostly shares handed out (a stock
 * dividend, a split's `Stock Dividend Due Bill` and its reversal). Its words must not read as one.
 */
const PAYOUT_WITHOUT_CASH = otherActivity('Merrill Edge', 'payout without cash');

const INFO = { id: 'merrill-edge-activity', label: 'Merrill Edge Activity' };

/**
 * Merrill Edge "Activity & Statements → Download" CSV: one row per entry of one account (`Account #`),
 * what it is in `Description 1` (`Purchase`, `Sale`, `Dividend`, `Foreign Dividend`, `Bank Interest`,
 * `Option Sale`, `Funds Received` …) beside its `Type` (`SecurityTransactions`, `DividendAndInterest`,
 * `FundReceipts` …), the security in `Description 2`, dates `M/D/YYYY`, sales with a negative Quantity,
 * money paid out in parentheses, `--` for no figure or no symbol, an option's symbol with a `#`
 * (`TSLA#B1326C425000`). A trade's amount is signed by its action; where the file gives none it is the
 * shares times the price (Merrill writes no separate charges). A row still `Pending` counts on its trade
 * date as a settled one does. The file's direction is read from its first and last days (one day:
 * newest first). No lot details: every trade is FIFO.
 */
export const merrillEdgeActivityFormat: BrokerageFormat = activityExportFormat(INFO, 'Merrill Edge', COLUMNS, readTransaction, {
  accountColumn: 'accountNumber',
  complete: inFileDirection(false),
});

function readTransaction(reader: RowReader<Column>): BrokerTransaction {
  const { date } = reader.day('tradeDate');
  const written = reader.requiredText('what', 'every entry says what it is (Purchase, Sale, Dividend …)').replace(/\s+/g, ' ');
  const symbolText = reader.text('symbol');
  const quantity = reader.number('quantity');
  const price = reader.number('price');
  let amount = reader.number('amount');
  let action = TRADES.get(written.toLowerCase());
  if (action === undefined && REINVESTMENT.test(written) && quantity !== null && !quantity.isZero()) action = 'Reinvest Shares';
  if (action !== undefined && symbolText.includes('#')) action = otherActivity('Merrill Edge', 'option trade');
  if (action === undefined) {
    const paysCash = amount !== null && !amount.isZero();
    action = classifyAction(written) !== 'dividend' ? otherActivity('Merrill Edge', written) : paysCash ? written : PAYOUT_WITHOUT_CASH;
  }
  const kind = classifyAction(action);
  const symbol = symbolText === '--' ? '' : reader.symbol('symbol', kind !== 'other');
  if (kind !== 'other' && symbol === '') throw reader.missing('symbol', `a ${written} needs the symbol of its security`);
  if (isTradeKind(kind)) {
    if (quantity === null || quantity.isZero()) throw reader.missing('quantity', `a ${written} needs a number of shares`);
    amount = signedTradeCash(reader, 'price', kind === 'buy', amount, quantity, price, null);
  }
  return activityRow(reader.line, reader.cellsJson, {
    date,
    action,
    kind,
    symbol,
    description: reader.sharedText('description'),
    quantity: quantity === null ? null : quantity.abs(),
    price,
    fees: null,
    amount,
  });
}
