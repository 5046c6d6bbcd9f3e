import type { BrokerTransaction } from '../broker-transaction.js';
import { classifyAction } from '../broker-transaction.js';
import { activityExportFormat, activityRow, chargesOf, inTimeOrder, otherActivity, secondOfDay, tradeCash } from './activity-export.js';
import type { BrokerageFormat } from './brokerage-format.js';
import { column, FIGURE_LIMITS, type RowReader } from './csv-columns.js';

const COLUMNS = {
  account: column('Account', false),
  date: column('Date', true, ['T/D', 'Trade Date']),
  time: column('Time', false, ['Exec Time', 'Execution Time']),
  currency: column('Currency', false),
  side: column('Side', true, ['Action']),
  symbol: column('Symbol'),
  quantity: column('Quantity', true, ['Qty', 'Shares'], FIGURE_LIMITS.quantity),
  price: column('Price', true, [], FIGURE_LIMITS.price),
  fees: column('Fees', false, ['Commission']),
  commission: column('Comm', false),
  sec: column('SEC', false),
  taf: column('TAF', false),
  nscc: column('NSCC', false),
  nasdaq: column('Nasdaq', false),
  ecnRemove: column('ECN Remove', false),
  ecnAdd: column('ECN Add', false),
  amount: column('Amount', false, ['Net Proceeds']),
  note: column('Note', false, ['Description']),
};
type Column = keyof typeof COLUMNS;

/** The sides, as the import's action words (TradeNote's codes B, S, SS, BC and the words). */
const SIDES: ReadonlyMap<string, string> = new Map([
  ['b', 'Buy'],
  ['buy', 'Buy'],
  ['bot', 'Buy'],
  ['bought', 'Buy'],
  ['s', 'Sell'],
  ['sell', 'Sell'],
  ['sld', 'Sell'],
  ['sold', 'Sell'],
  ['ss', 'Sell Short'],
  ['short', 'Sell Short'],
  ['sell short', 'Sell Short'],
  ['bc', 'Buy to Cover'],
  ['cover', 'Buy to Cover'],
  ['buy to cover', 'Buy to Cover'],
  ['div', 'Cash Dividend'],
  ['dividend', 'Cash Dividend'],
]);

const INFO = { id: 'executions-template', label: 'Trade executions template (TradeZero, TradeNote)' };

/**
 * The layout for any broker the import does not know (docs/formats.md "Trade executions template"):
 * one execution per row, the day (`Date`), its side (`B`, `S`, `SS`, `BC` or the words; `DIV` for a
 * dividend), symbol, quantity and price, optionally its time, fees and net amount. TradeNote's import
 * template (`Account, T/D, S/D, Currency, Type, Side, Symbol, Qty, Price, Exec Time, Comm, SEC, TAF,
 * NSCC, Nasdaq, ECN Remove, ECN Add, Gross Proceeds, Net Proceeds, …`), which is TradeZero's trade
 * history download, is read as it is. A day's rows
 * are in the order of their times where the file gives them, else in file order (oldest first);
 * without an amount, a trade's is its shares times its price, less the fees on a sale, plus them on a
 * purchase. Rows in another currency are kept and reported. No lot details: every trade is FIFO.
 */
export const executionsTemplateFormat: BrokerageFormat = activityExportFormat(INFO, 'Executions template', COLUMNS, readTransaction, {
  oldestFirst: true,
  accountColumn: 'account',
  complete: (transactions, layout) => (layout.has('time') ? inTimeOrder(transactions) : transactions),
});

function readTransaction(reader: RowReader<Column>): BrokerTransaction {
  const { date } = reader.day('date');
  const side = reader.requiredText('side', 'every execution has a side (B, S, SS or BC)');
  const known = SIDES.get(side.replace(/\s+/g, ' ').toLowerCase());
  if (known === undefined) throw reader.invalid('side', side, `unknown Side '${side}' (known: B, S, SS, BC, Buy, Sell, Short, Cover, DIV)`);
  const currency = reader.text('currency').toUpperCase();
  const action = currency === '' || currency === 'USD' ? known : otherActivity('Template', `execution in ${currency}`);
  const kind = classifyAction(action);
  const symbol = reader.symbol('symbol', kind !== 'other');
  if (symbol === '' && kind !== 'other') throw reader.missing('symbol', 'every execution has a symbol');
  const fees = chargesOf(
    reader.number('fees'),
    reader.number('commission'),
    reader.number('sec'),
    reader.number('taf'),
    reader.number('nscc'),
    reader.number('nasdaq'),
    reader.number('ecnRemove'),
    reader.number('ecnAdd'),
  );
  const quantity = reader.number('quantity');
  const price = reader.number('price');
  let amount = reader.number('amount');
  if (kind === 'dividend') {
    if (amount === null) throw reader.missing('amount', 'a dividend needs its amount');
  } else if (kind !== 'other') {
    if (quantity === null || quantity.isZero()) throw reader.missing('quantity', 'an execution needs a number of shares');
    if (price === null) throw reader.missing('price', 'an execution needs its price');
    const buying = kind === 'buy' || kind === 'buy_to_cover';
    if (amount === null) {
      amount = tradeCash(buying, quantity, price, fees);
    } else if (buying ? amount.isPositive() : amount.isNegative()) {
      throw reader.invalid('amount', amount.toString(), `a ${buying ? 'purchase' : 'sale'}'s amount is the cash it ${buying ? 'took, negative' : 'brought, positive'}`);
    }
  }
  const transaction = activityRow(reader.line, reader.cellsJson, {
    date,
    action,
    kind,
    symbol,
    description: reader.sharedText('note'),
    quantity: quantity === null ? null : quantity.abs(),
    price: price === null ? null : price.abs(),
    fees,
    amount,
  });
  // The second of the day, of which `inTimeOrder` makes the row's day order (higher = earlier).
  return reader.has('time') ? { ...transaction, dayOrder: -secondsOf(reader) } : transaction;
}

function secondsOf(reader: RowReader<Column>): number {
  const text = reader.requiredText('time', 'the file gives times: every execution needs its time');
  const second = secondOfDay(text);
  if (second === undefined) throw reader.invalid('time', text, `'${text}' is not a time of day (HH:MM or HH:MM:SS)`);
  return second;
}
