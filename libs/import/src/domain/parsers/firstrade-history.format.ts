import { Decimal } from '@app/shared/domain';
import type { BrokerTransaction } from '../broker-transaction.js';
import { classifyAction, isTradeKind } from '../broker-transaction.js';
import { activityExportFormat, activityRow, chargesOf, inFileDirection, otherActivity, signedTradeCash } from './activity-export.js';
import type { BrokerageFormat } from './brokerage-format.js';
import { column, FIGURE_LIMITS, type RowReader } from './csv-columns.js';

const COLUMNS = {
  symbol: column('Symbol'),
  quantity: column('Quantity', true, [], FIGURE_LIMITS.quantity),
  price: column('Price', true, [], FIGURE_LIMITS.price),
  action: column('Action'),
  description: column('Description'),
  tradeDate: column('TradeDate'),
  settledDate: column('SettledDate', false),
  interest: column('Interest', false),
  amount: column('Amount'),
  commission: column('Commission'),
  fee: column('Fee'),
  cusip: column('CUSIP', false),
  recordType: column('RecordType'),
};
type Column = keyof typeof COLUMNS;

/** Firstrade's actions, as the import's action words (compared in lower case). */
const ACTIONS: ReadonlyMap<string, string> = new Map([
  ['buy', 'Buy'],
  ['sell', 'Sell'],
  ['dividend', 'Cash Dividend'],
]);

/** A dividend reinvested: an `Other` row whose description gives the price (`… REIN @ 189.1200`). */
const REINVESTED = /\bREIN @ ?\$?(\d{1,9}(?:\.\d{1,8})?)\b/i;

const INFO = { id: 'firstrade-history', label: 'Firstrade Account History' };

/**
 * Firstrade "Accounts → History → Download CSV": one row per entry, `Action` `BUY`, `SELL`,
 * `Dividend`, `Interest` or `Other`, dates `YYYY-MM-DD`, sales with a negative Quantity, an option's
 * row without a Symbol. A dividend reinvested is an `Other` row whose description carries the price
 * (`REIN @ 189.12`): a purchase of its shares. A trade's amount is signed by its action whatever its
 * sign in the file, or, when the file gives none, its shares times its price and the commission and
 * fee. The file's direction is read from its first and last days (a file of one day: newest first, as
 * Firstrade lists). Interest, transfers and other entries are kept and reported. No account number,
 * no lot details: every trade is FIFO.
 */
export const firstradeHistoryFormat: BrokerageFormat = activityExportFormat(INFO, 'Firstrade', COLUMNS, readTransaction, {
  complete: inFileDirection(false),
});

function readTransaction(reader: RowReader<Column>): BrokerTransaction {
  const { date } = reader.day('tradeDate');
  const written = reader.requiredText('action', 'every entry has an action');
  const description = reader.sharedText('description');
  const reinvested = /^other$/i.test(written) ? REINVESTED.exec(description) : null;
  const symbolText = reader.text('symbol');
  let action = reinvested !== null ? 'Reinvest Shares' : (ACTIONS.get(written.toLowerCase()) ?? otherActivity('Firstrade', written));
  if (isTradeKind(classifyAction(action)) && symbolText === '') action = otherActivity('Firstrade', 'option trade');
  const kind = classifyAction(action);
  const symbol = reader.symbol('symbol', kind !== 'other');
  if (kind === 'dividend' && symbol === '') throw reader.missing('symbol', 'a dividend needs the symbol that paid it');
  const quantity = reader.number('quantity');
  const price = reinvested !== null ? Decimal.parse(reinvested[1]) : reader.number('price');
  const fees = chargesOf(reader.number('commission'), reader.number('fee'));
  let amount = reader.number('amount');
  if (isTradeKind(kind)) {
    if (quantity === null || quantity.isZero()) throw reader.missing('quantity', 'a trade needs a number of shares');
    amount = signedTradeCash(reader, 'price', kind === 'buy', amount, quantity, price, fees === null ? null : fees.abs());
  }
  return activityRow(reader.line, reader.cellsJson, {
    date,
    action,
    kind,
    symbol,
    description,
    quantity: quantity === null ? null : quantity.abs(),
    price,
    fees: fees === null ? null : fees.abs(),
    amount,
  });
}
