import type { BrokerTransaction } from '../broker-transaction.js';
import { classifyAction, isTradeKind } from '../broker-transaction.js';
import { activityExportFormat, activityRow } from './activity-export.js';
import type { BrokerageFormat } from './brokerage-format.js';
import { column, FIGURE_LIMITS, type RowReader } from './csv-columns.js';

const COLUMNS = {
  activityDate: column('Activity Date'),
  processDate: column('Process Date'),
  settleDate: column('Settle Date'),
  instrument: column('Instrument'),
  description: column('Description'),
  code: column('Trans Code'),
  quantity: column('Quantity', true, [], FIGURE_LIMITS.quantity),
  price: column('Price', true, [], FIGURE_LIMITS.price),
  amount: column('Amount'),
};
type Column = keyof typeof COLUMNS;

/**
 * Robinhood's transaction codes, as the import's own action words (the words a stored row is
 * classified by again on every later import): equity trades, cash dividends and splits count; every
 * other code (transfers, interest, fees, options, crypto) is kept with the upload and reported, by
 * code, as counted toward nothing. docs/formats.md lists the codes and where they come from.
 */
const ACTIONS: ReadonlyMap<string, string> = new Map([
  ['BUY', 'Buy'],
  ['SELL', 'Sell'],
  ['CDIV', 'Cash Dividend'],
  ['MDIV', 'Cash Dividend'],
  ['SPL', 'Stock Split'],
  ['SPR', 'Reverse Split'],
]);

/** Codes known not to be equity trades or dividends: their rows are kept and reported, never an error. */
export const ROBINHOOD_OTHER_CODES: ReadonlyMap<string, string> = new Map([
  ['ACH', 'Robinhood transfer (ACH)'],
  ['ACATI', 'Robinhood transfer (ACATS in)'],
  ['ACATO', 'Robinhood transfer (ACATS out)'],
  ['ITRF', 'Robinhood transfer (internal)'],
  ['RTP', 'Robinhood transfer (instant)'],
  ['INT', 'Robinhood interest'],
  ['SLIP', 'Robinhood stock lending payment'],
  ['GOLD', 'Robinhood Gold fee'],
  ['AFEE', 'Robinhood fee (ADR)'],
  ['DFEE', 'Robinhood fee (deposit)'],
  ['DTAX', 'Robinhood withheld tax'],
  ['REC', 'Robinhood shares received'],
  ['GDBP', 'Robinhood Gold deposit boost'],
  ['FUTSWP', 'Robinhood futures sweep'],
  ['BTO', 'Robinhood option trade (buy to open)'],
  ['STO', 'Robinhood option trade (sell to open)'],
  ['BTC', 'Robinhood option trade (buy to close)'],
  ['STC', 'Robinhood option trade (sell to close)'],
  ['OEXP', 'Robinhood option expiration'],
  ['OASGN', 'Robinhood option assignment'],
  ['OEXCS', 'Robinhood option exercise'],
]);

const INFO = { id: 'robinhood-activity', label: 'Robinhood Account Activity' };

/**
 * Robinhood "Account activity" report (Reports and statements → Reports): one row per activity, newest
 * first, amounts in dollars with purchases in parentheses, dates M/D/YYYY, a description that may span
 * lines, and a disclaimer line at the end. It carries no account number and no lot details: every
 * trade is matched FIFO.
 */
export const robinhoodActivityFormat: BrokerageFormat = activityExportFormat(INFO, 'Robinhood', COLUMNS, readTransaction);

function readTransaction(reader: RowReader<Column>): BrokerTransaction {
  const { date } = reader.date('activityDate');
  const code = reader.requiredText('code', 'every activity has a transaction code').toUpperCase();
  const action = ACTIONS.get(code) ?? ROBINHOOD_OTHER_CODES.get(code);
  if (action === undefined) {
    throw reader.invalid('code', code, `unknown Trans Code '${code}' (known: ${[...ACTIONS.keys(), ...ROBINHOOD_OTHER_CODES.keys()].join(', ')})`);
  }
  const kind = classifyAction(action);
  const symbol = reader.symbol('instrument', kind !== 'other');
  const quantity = reader.number('quantity');
  const price = reader.number('price');
  const amount = reader.number('amount');
  if (isTradeKind(kind) || kind === 'stock_split' || kind === 'reverse_split') {
    if (symbol === '') throw reader.missing('instrument', `a ${code} needs an instrument`);
    if (quantity === null || quantity.isZero()) throw reader.missing('quantity', `a ${code} needs a number of shares`);
  }
  if (isTradeKind(kind) && amount === null && price === null) {
    throw reader.missing('amount', 'and there is no Price to compute it from');
  }
  return activityRow(reader.line, reader.cellsJson, {
    date,
    action,
    kind,
    symbol,
    // The description's first line (Robinhood adds the CUSIP on a second one).
    description: reader.text('description').split(/\r?\n/)[0].trim(),
    // Robinhood writes some sells with a negative quantity: the code gives the direction.
    quantity: quantity === null ? null : quantity.abs(),
    price,
    fees: null,
    amount,
  });
}
