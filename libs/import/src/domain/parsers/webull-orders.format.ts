import type { BrokerTransaction } from '../broker-transaction.js';
import { classifyAction } from '../broker-transaction.js';
import { activityExportFormat, activityRow, markCovers, otherActivity } from './activity-export.js';
import type { BrokerageFormat } from './brokerage-format.js';
import { column, FIGURE_LIMITS, type RowReader } from './csv-columns.js';

const COLUMNS = {
  name: column('Name'),
  symbol: column('Symbol'),
  side: column('Side'),
  status: column('Status'),
  filled: column('Filled', true, [], FIGURE_LIMITS.quantity),
  totalQuantity: column('Total Qty', true, [], FIGURE_LIMITS.quantity),
  price: column('Price', true, [], FIGURE_LIMITS.price),
  averagePrice: column('Avg Price', true, [], FIGURE_LIMITS.price),
  timeInForce: column('Time-in-Force', false),
  placedTime: column('Placed Time'),
  filledTime: column('Filled Time'),
};
type Column = keyof typeof COLUMNS;

/** An option contract's OCC symbol (`AAPL240216C00150000`): Webull lists option orders in the same file. */
const OPTION_SYMBOL = /^[A-Z]{1,6}\d{6}[CP]\d{8}$/;

const INFO = { id: 'webull-orders', label: 'Webull Orders Records' };

/**
 * Webull "Orders Records" (Account → History → Export orders): one row per order newest first, with
 * its status, the shares filled and their average price (`@` before limit prices), times
 * `MM/DD/YYYY HH:MM:SS EST`. Only filled orders are trades; cancelled and failed ones are kept and
 * reported. Webull writes a short sale as `Short` and its cover as a plain `Buy`: a Buy while the
 * file's own running position in that symbol is short is read as a cover. No fees, dividends or lots
 * in this file: every trade is FIFO.
 */
export const webullOrdersFormat: BrokerageFormat = activityExportFormat(INFO, 'Webull', COLUMNS, readTransaction, { complete: markCovers });

function readTransaction(reader: RowReader<Column>): BrokerTransaction {
  const side = reader.requiredText('side', 'every order has a side').toUpperCase();
  const status = reader.requiredText('status', 'every order has a status');
  const filled = reader.number('filled');
  const rawSymbol = reader.text('symbol').toUpperCase();
  const isFilled = /^(partially )?filled$/i.test(status) && filled !== null && !filled.isZero();
  const trade = side === 'BUY' ? 'Buy' : side === 'SELL' ? 'Sell' : side === 'SHORT' ? 'Sell Short' : undefined;
  if (trade === undefined) throw reader.invalid('side', side, `unknown Side '${side}' (known: Buy, Sell, Short)`);
  let action = trade;
  if (!isFilled) action = otherActivity('Webull', `order not filled (${status})`);
  else if (OPTION_SYMBOL.test(rawSymbol) || rawSymbol === '') action = otherActivity('Webull', 'option order');
  const kind = classifyAction(action);
  const symbol = kind === 'other' ? reader.symbol('symbol', false) : reader.symbol('symbol', true);
  const { date } = isFilled ? reader.day('filledTime') : reader.day('placedTime');
  const price = reader.number('averagePrice');
  if (kind !== 'other' && price === null) throw reader.missing('averagePrice', 'a filled order needs its average price');
  const quantity = filled === null ? null : filled.abs();
  const gross = kind === 'other' || quantity === null || price === null ? null : quantity.mul(price);
  return activityRow(reader.line, reader.cellsJson, {
    date,
    action,
    kind,
    symbol,
    description: reader.sharedText('name'),
    quantity,
    price,
    fees: null,
    amount: gross === null ? null : side === 'BUY' ? gross.neg() : gross,
  });
}
