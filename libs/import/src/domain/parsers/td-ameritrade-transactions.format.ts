import type { BrokerTransaction } from '../broker-transaction.js';
import { classifyAction, isTradeKind } from '../broker-transaction.js';
import { activityExportFormat, activityRow, chargesOf, inFileDirection, otherActivity } from './activity-export.js';
import type { BrokerageFormat } from './brokerage-format.js';
import { column, FIGURE_LIMITS, type RowReader } from './csv-columns.js';

const COLUMNS = {
  date: column('DATE'),
  transactionId: column('TRANSACTION ID'),
  description: column('DESCRIPTION'),
  quantity: column('QUANTITY', true, [], FIGURE_LIMITS.quantity),
  symbol: column('SYMBOL'),
  price: column('PRICE', true, [], FIGURE_LIMITS.price),
  commission: column('COMMISSION'),
  amount: column('AMOUNT'),
  regFee: column('REG FEE', false, ['SEC FEE', 'SALES FEE']),
  shortTermRedemptionFee: column('SHORT-TERM RDM FEE', false),
  fundRedemptionFee: column('FUND REDEMPTION FEE', false),
  deferredSalesCharge: column('DEFERRED SALES CHARGE', false),
};
type Column = keyof typeof COLUMNS;

/**
 * The descriptions' first words (`Bought 100 AAPL @ 150.00`, `ORDINARY DIVIDEND (AAPL)`), as the
 * import's action words, the longer before the shorter they begin with.
 */
const ACTIONS: readonly (readonly [RegExp, string])[] = [
  [/^(bought|buy) to cover\b/i, 'Buy to Cover'],
  [/^(sold|sell) short\b/i, 'Sell Short'],
  [/^bought\b/i, 'Buy'],
  [/^sold\b/i, 'Sell'],
  [/^qualified dividend\b/i, 'Qualified Dividend'],
  [/^(ordinary|non-qualified) dividend\b/i, 'Cash Dividend'],
  [/^(long term gain distribution|short term capital gains?)\b/i, 'Cap Gain'],
];

/** An option: `Bought 1 AAPL Jan 15 2021 150.0 Call @ 2.50`, `SOLD TO CLOSE …`, or a symbol with a space (`AAPL Jan 15 2021 150.0 Call`). */
const OPTION = /\b(call|put|to open|to close|contracts?)\b/i;

/** Words that would make a row kept for the record read as a dividend (`CASH ALTERNATIVES DIVIDENDS`, `DIVIDEND REINVESTMENT`). */
const PAYOUT_WORDS = /\b(dividends?|distributions?|capital gains?|cap gains?|div)\b/gi;

/** The most of a description a kept row's action word takes. */
const KEPT_WORDS = 60;

const INFO = { id: 'td-ameritrade-transactions', label: 'TD Ameritrade Transactions' };

/**
 * TD Ameritrade "History & Statements → Transactions → Download" (`transactions.csv`, the accounts
 * Schwab took over in 2023–2024 keep them as their history before the move): one row per entry, the
 * action in the description's words (`Bought 100 AAPL @ 150.00`, `Sold Short …`, `ORDINARY DIVIDEND
 * (AAPL)`), quantities unsigned, `AMOUNT` signed and net of the commission and the fees, dates
 * `MM/DD/YYYY`, and `***END OF FILE***` after the last row. The file lists oldest first; one that
 * lists newest first (its first day later than its last) is read so. Options, money-market sweeps,
 * transfers, interest and dividend reinvestments are kept and reported. No account number and no lot
 * details: every trade is FIFO.
 */
export const tdAmeritradeTransactionsFormat: BrokerageFormat = activityExportFormat(INFO, 'TD Ameritrade', COLUMNS, readTransaction, {
  oldestFirst: true,
  complete: inFileDirection(true),
});

function readTransaction(reader: RowReader<Column>): BrokerTransaction {
  const { date } = reader.date('date');
  const description = reader.requiredText('description', 'every entry has a description');
  const written = reader.text('symbol');
  const mapped = ACTIONS.find(([words]) => words.test(description))?.[1];
  // The symbol's own word left out: a stock may be named like an option's words (ticker CALL).
  const option = OPTION.test(description.split(/\s+/).filter((word) => word.toUpperCase() !== written.toUpperCase()).join(' ')) || /\s/.test(written);
  const action = mapped === undefined || (option && isTradeKind(classifyAction(mapped))) ? otherActivity('TD Ameritrade', option ? 'option trade' : keptAs(description)) : mapped;
  const kind = classifyAction(action);
  const symbol = kind === 'other' ? reader.symbol('symbol', false) : reader.symbol('symbol', true);
  const quantity = reader.number('quantity');
  const amount = reader.number('amount');
  if (isTradeKind(kind)) {
    if (symbol === '') throw reader.missing('symbol', 'a trade needs a symbol');
    if (quantity === null || quantity.isZero()) throw reader.missing('quantity', 'a trade needs a number of shares');
    if (amount === null) throw reader.missing('amount', 'a trade needs its amount');
  }
  if (kind === 'dividend' && symbol === '') throw reader.missing('symbol', 'a dividend needs the symbol that paid it');
  const fees = chargesOf(reader.number('commission'), reader.number('regFee'), reader.number('shortTermRedemptionFee'), reader.number('fundRedemptionFee'), reader.number('deferredSalesCharge'));
  return activityRow(reader.line, reader.cellsJson, {
    date,
    action,
    kind,
    symbol,
    description,
    quantity: quantity === null ? null : quantity.abs(),
    price: reader.number('price'),
    fees: fees === null ? null : fees.abs(),
    amount,
  });
}

/**
 * The action word of a row kept for the record: its description's words before a parenthesis or a
 * figure (`MONEY MARKET PURCHASE (MMDA10)` → `TD Ameritrade MONEY MARKET PURCHASE`), a payout's word
 * as `INCOME` so that none of them reads as a dividend (`CASH ALTERNATIVES INCOME`).
 */
function keptAs(description: string): string {
  const words = description.split(/[(~]|\s\d/)[0].trim().slice(0, KEPT_WORDS);
  return (words === '' ? 'entry' : words).replace(PAYOUT_WORDS, 'INCOME');
}
