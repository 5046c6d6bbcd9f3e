import type { Decimal } from '@app/shared/domain';
import type { BrokerTransaction } from '../broker-transaction.js';
import { classifyAction } from '../broker-transaction.js';
import { activityExportFormat, activityRow, otherActivity, tradeCash } from './activity-export.js';
import type { BrokerageFormat } from './brokerage-format.js';
import { column, FIGURE_LIMITS, isTicker, type RowReader } from './csv-columns.js';

const COLUMNS = {
  date: column('Date', true, ['TradeDate']),
  code: column('Code'),
  dataSource: column('DataSource', false),
  currency: column('Currency', true, ['Ccy', 'CurrencyPrimary']),
  price: column('Price', true, ['UnitPrice', 'TradePrice', 'Value'], FIGURE_LIMITS.price),
  quantity: column('Quantity', true, ['Qty', 'Shares', 'Units'], FIGURE_LIMITS.quantity),
  action: column('Action', true, ['Type']),
  fee: column('Fee', false, ['Commission', 'IBCommission']),
  note: column('Note', false, ['Comment']),
};
type Column = keyof typeof COLUMNS;

/** Ghostfolio's activity types, as the import's action words (compared in lower case). */
const ACTIONS: ReadonlyMap<string, string> = new Map([
  ['buy', 'Buy'],
  ['sell', 'Sell'],
  ['dividend', 'Cash Dividend'],
]);

/**
 * The day of a Ghostfolio date, in the formats its import reads: day first (`16-09-2021`,
 * `16/09/2021`, `16.09.2021`), year first (`2021-09-16`, `2021/09/16`, `2021.09.16`, `20210916`), or an
 * ISO date and time (`2021-09-16T00:00:00.000Z`, the day as written). The day as `YYYY-MM-DD`, or
 * undefined when the text is none of them.
 */
function ghostfolioDay(text: string): string | undefined {
  const dayFirst = /^(\d{2})([-/.])(\d{2})\2(\d{4})$/.exec(text);
  if (dayFirst !== null) return `${dayFirst[4]}-${dayFirst[3]}-${dayFirst[1]}`;
  const yearFirst = /^(\d{4})([-/.]?)(\d{2})\2(\d{2})(?:T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(text);
  return yearFirst === null ? undefined : `${yearFirst[1]}-${yearFirst[3]}-${yearFirst[4]}`;
}

const INFO = { id: 'ghostfolio-activities', label: 'Ghostfolio activities' };

/**
 * Ghostfolio's CSV of activities, the file its import reads (`Date, Code, DataSource, Currency, Price,
 * Quantity, Action, Fee, Note`, and the other spellings of those columns it accepts): a way over from
 * Ghostfolio. Dates day first or year first as Ghostfolio reads them; `buy`, `sell` and `dividend`
 * (its Price the dividend per share: the cash is the shares times it, less the fee); `fee`, `interest`,
 * `liability` and `item` kept and reported, as are activities in another currency than USD. Figures are
 * taken without their signs, as Ghostfolio does. Ghostfolio's `Account` is an account's name in
 * Ghostfolio, not a number: the rows go to the upload's account. A day's activities are in file order,
 * oldest first. Every trade is FIFO.
 */
export const ghostfolioActivitiesFormat: BrokerageFormat = activityExportFormat(INFO, 'Ghostfolio', COLUMNS, readTransaction, { oldestFirst: true });

function readTransaction(reader: RowReader<Column>): BrokerTransaction {
  const written = reader.requiredText('date');
  const day = ghostfolioDay(written);
  if (day === undefined) throw reader.invalid('date', written, `'${written}' is not a date as Ghostfolio writes one (DD-MM-YYYY, DD/MM/YYYY, DD.MM.YYYY, YYYY-MM-DD, YYYYMMDD)`);
  const { date } = reader.date('date', day, written);
  const type = reader.requiredText('action', 'every activity has a type (buy, sell, dividend …)');
  const currency = reader.requiredText('currency', 'every activity has its currency').toUpperCase();
  const known = ACTIONS.get(type.toLowerCase());
  // A manual asset (Ghostfolio's MANUAL data source: a house, a private holding) is named by an id, not a ticker: kept and reported.
  const manual = known !== undefined && reader.text('dataSource').toUpperCase() === 'MANUAL' && !isTicker(reader.text('code').toUpperCase());
  const action =
    known === undefined
      ? otherActivity('Ghostfolio', `${type.toLowerCase()} activity`)
      : manual
        ? otherActivity('Ghostfolio', 'activity of a manual asset')
        : currency === 'USD'
          ? known
          : otherActivity('Ghostfolio', `activity in ${currency}`);
  const kind = classifyAction(action);
  const symbol = reader.symbol('code', kind !== 'other');
  if (symbol === '' && kind !== 'other') throw reader.missing('code', `a ${type} needs the symbol it is about`);
  const quantity = reader.number('quantity')?.abs() ?? null;
  const price = reader.number('price')?.abs() ?? null;
  const fee = reader.number('fee')?.abs() ?? null;
  let amount: Decimal | null = null;
  if (kind !== 'other') {
    if (quantity === null || quantity.isZero()) throw reader.missing('quantity', `a ${type} needs its number of shares`);
    if (price === null) throw reader.missing('price', `a ${type} needs its price${kind === 'dividend' ? ' (the dividend per share)' : ''}`);
    // A dividend's cash is its shares times the dividend per share, less the fee, as a sale's is.
    amount = tradeCash(kind === 'buy', quantity, price, fee);
  }
  return activityRow(reader.line, reader.cellsJson, {
    date,
    action,
    kind,
    symbol,
    description: reader.sharedText('note'),
    quantity,
    price,
    fees: fee,
    amount,
  });
}
