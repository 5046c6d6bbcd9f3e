import type { BrokerTransaction } from '../broker-transaction.js';
import { classifyAction, isTradeKind } from '../broker-transaction.js';
import { activityExportFormat, activityRow, chargesOf } from './activity-export.js';
import type { BrokerageFormat } from './brokerage-format.js';
import { column, FIGURE_LIMITS, type RowReader } from './csv-columns.js';

const COLUMNS = {
  runDate: column('Run Date'),
  action: column('Action'),
  symbol: column('Symbol'),
  description: column('Description', false, ['Security Description']),
  type: column('Type', false, ['Security Type']),
  quantity: column('Quantity', true, [], FIGURE_LIMITS.quantity),
  price: column('Price ($)', true, ['Price'], FIGURE_LIMITS.price),
  commission: column('Commission ($)', false, ['Commission']),
  fees: column('Fees ($)', false, ['Fees']),
  accruedInterest: column('Accrued Interest ($)', false, ['Accrued Interest']),
  amount: column('Amount ($)', true, ['Amount']),
  cashBalance: column('Cash Balance ($)', false),
  settlementDate: column('Settlement Date', false),
};
type Column = keyof typeof COLUMNS;

/**
 * Fidelity's Action sentences, by their opening words, as the import's action words (stored rows are
 * classified by those words again on every later import). Checked in order: the first match wins.
 */
const ACTIONS: readonly (readonly [RegExp, string])[] = [
  [/^YOU SOLD SHORT\b|^SHORT SALE\b/, 'Sell Short'],
  [/^YOU BOUGHT\b.*\bTO COVER\b|^BUY TO COVER\b/, 'Buy to Cover'],
  [/^YOU BOUGHT\b/, 'Buy'],
  [/^YOU SOLD\b/, 'Sell'],
  [/^REINVESTMENT\b/, 'Reinvest Shares'],
  [/^DIVIDEND RECEIVED\b/, 'Cash Dividend'],
  [/^LONG-TERM CAP GAIN\b/, 'Long Term Cap Gain'],
  [/^SHORT-TERM CAP GAIN\b/, 'Short Term Cap Gain'],
  [/^RETURN OF CAPITAL\b/, 'Return of Capital Distribution'],
];

/** What Fidelity writes after a money-market fund's ticker (`SPAXX**`). */
const MONEY_MARKET_MARK = /\*+$/;

/** Option contracts: Fidelity writes their symbols with a leading `-` (`-AAPL240216C150`). */
const OPTION_SYMBOL = /^-/;

const INFO = { id: 'fidelity-history', label: 'Fidelity Accounts History' };

/**
 * Fidelity "Accounts History" / activity download (Accounts & Trade → Activity & Orders → Download):
 * blank lines before the header, one row per activity newest first, an Action sentence per row
 * ("YOU BOUGHT APPLE INC (AAPL) (Cash)"), sales with a negative Quantity, signed amounts, and
 * disclaimer lines after the data. It carries no lot details: every trade is matched FIFO.
 */
export const fidelityHistoryFormat: BrokerageFormat = activityExportFormat(INFO, 'Fidelity', COLUMNS, readTransaction);

/** The import's action word for a Fidelity Action sentence (anything it does not map stays as written). */
export function fidelityAction(sentence: string, symbol: string, quantity: boolean, amount: boolean): string {
  const words = sentence.trim().replace(/\s+/g, ' ').toUpperCase();
  if (OPTION_SYMBOL.test(symbol)) return `Fidelity option activity: ${words}`;
  // A split adds shares and moves no cash: Fidelity writes it as a DISTRIBUTION of shares.
  if (/^DISTRIBUTION\b/.test(words) && quantity && !amount) return 'Stock Split';
  return ACTIONS.find(([pattern]) => pattern.test(words))?.[1] ?? sentence.trim().replace(/\s+/g, ' ');
}

function readTransaction(reader: RowReader<Column>): BrokerTransaction {
  const { date } = reader.date('runDate');
  const sentence = reader.requiredText('action', 'every activity has an Action');
  const rawSymbol = reader.text('symbol').replace(MONEY_MARKET_MARK, '');
  const quantity = reader.number('quantity');
  const price = reader.number('price');
  const amount = reader.number('amount');
  const commission = reader.number('commission');
  const fees = reader.number('fees');
  const action = fidelityAction(sentence, rawSymbol, quantity !== null && !quantity.isZero(), amount !== null && !amount.isZero());
  const kind = classifyAction(action);
  // Kept as written on rows the import counts toward nothing; a ticker, checked, where it does.
  const symbol = kind === 'other' ? rawSymbol.toUpperCase() : reader.symbol('symbol', true, MONEY_MARKET_MARK);
  if (isTradeKind(kind) || kind === 'stock_split') {
    if (symbol === '') throw reader.missing('symbol', `'${sentence}' needs a symbol`);
    if (quantity === null || quantity.isZero()) throw reader.missing('quantity', `'${sentence}' needs a number of shares`);
  }
  if (isTradeKind(kind) && amount === null && price === null) {
    throw reader.missing('amount', 'and there is no Price to compute it from');
  }
  const charges = chargesOf(commission, fees);
  return activityRow(reader.line, reader.cellsJson, {
    date,
    action,
    kind,
    symbol,
    description: reader.sharedText('description'),
    // Fidelity writes sales with a negative quantity: the action gives the direction.
    quantity: quantity === null ? null : quantity.abs(),
    price,
    fees: charges === null ? null : charges.abs(),
    amount,
  });
}
