import { Decimal, makeIsoDate } from '@app/shared/domain';
import type { BrokerTransaction } from '../broker-transaction.js';
import { classifyAction, isClosingKind } from '../broker-transaction.js';
import { ImportFileError } from '../import.errors.js';
import { activityRow, chargesOf, grossCash, inTimeOrder, markCovers, otherActivity, parseActivityExport, secondOfDay } from './activity-export.js';
import type { BrokerageFormat, FormatInput } from './brokerage-format.js';
import { column, ColumnLayout, columnList, FIGURE_LIMITS, type RowReader } from './csv-columns.js';

const COLUMNS = {
  side: column('Side'),
  symbol: column('Symbol'),
  name: column('Name', false),
  status: column('Status', false),
  filledAtAverage: column('Filled@Avg Price', false),
  orderTime: column('Order Time', false),
  // The orders history writes Markets and Currency twice (the order's, then the fill's): the first are read.
  markets: column('Markets', false),
  currency: column('Currency', false),
  fillQuantity: column('Fill Qty', false, [], FIGURE_LIMITS.quantity),
  fillPrice: column('Fill Price', false, [], FIGURE_LIMITS.price),
  fillAmount: column('Fill Amount', false),
  fillTime: column('Fill Time', false),
  commission: column('Commission', false),
  platformFees: column('Platform Fees', false),
  tradingActivityFees: column('Trading Activity Fees', false),
  optionsRegulatoryFees: column('Options Regulatory Fees', false),
  occFees: column('OCC Fees', false),
  contractFees: column('Contract Fees', false),
  secFees: column('SEC Fees', false),
  settlementFees: column('Settlement Fees', false),
  totalFees: column('Total', false),
};
type Column = keyof typeof COLUMNS;

const FEES = ['commission', 'platformFees', 'tradingActivityFees', 'optionsRegulatoryFees', 'occFees', 'contractFees', 'secFees', 'settlementFees'] as const;

/** moomoo's `Side` words as the import's action words (a cover is a plain `Buy`: `markCovers`). */
const SIDES: ReadonlyMap<string, string> = new Map([
  ['buy', 'Buy'],
  ['sell', 'Sell'],
  ['short sell', 'Sell Short'],
]);

/** An option's symbol as moomoo writes it: root, YYMMDD, C or P, the strike in thousandths (`AAPL250509C185000`). */
const OPTION_SYMBOL = /^[A-Z]{1,6}\d{6}[CP]\d+$/;

/** `Apr 16, 2026 15:53:57 ET` (also without the time, the comma or the zone). */
const NAMED_MONTH_TIME = /^([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})(?:\s+(\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AP]M)?))?(?:\s+\(?[A-Za-z]{1,5}\)?)?$/;
/** `2025/01/01 09:30:00 (ET)` (also `2025-01-01`). */
const NUMERIC_TIME = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})(?:\s+(\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AP]M)?))?(?:\s+\(?[A-Za-z]{1,5}\)?)?$/;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const INFO = { id: 'moomoo-history', label: 'moomoo orders or fills history' };

/** What an order's row says that the fill rows under it do not repeat. */
interface Order {
  readonly action: string;
  readonly symbol: string;
  readonly description: string;
}

/**
 * moomoo's (Futu's) history downloads: the orders history (one row per order, its first fill beside it
 * and each further fill on a row of its own with the order's cells empty, the order's charges on its
 * row) and the fills history (one row per fill, no charges). A fill is a trade on its `Fill Time`'s day
 * (`Apr 16, 2026 15:53:57 ET`, the day as written), for `Fill Qty` × `Fill Price` (`Fill Amount` where
 * given) with the order's charges (`Total`, or the sum of the fee columns) on its first fill. An orders
 * history without the fill columns gives each order's shares and average price in `Filled@Avg Price`
 * (`4@261.6225`) on its `Order Time`'s day. An order with no fill (`Cancelled`), an option
 * (`AAPL250509C185000`) and a trade off the US market or in another currency are kept and reported.
 * Sides: `Buy`, `Sell`, `Short Sell`; a cover is a plain `Buy`, read as Buy to Cover while the file's
 * own position in the symbol is short (`markCovers`). A day's fills go by their times; within a second,
 * newest first as the file lists them (the lower row the earlier), a sale of shares held after the
 * purchase of them. No account number, dividends or lots: every trade is FIFO.
 */
export const moomooHistoryFormat: BrokerageFormat = {
  ...INFO,
  accepted: true,
  layout: { broker: 'moomoo', kind: 'transactions', columns: columnList(COLUMNS) },
  recognises: (headerCells) => shapeOf(ColumnLayout.of(COLUMNS, headerCells)) !== undefined,
  parse: (input: FormatInput) => {
    const shape = shapeOf(ColumnLayout.of(COLUMNS, input.header.cells));
    if (shape === undefined) {
      throw new ImportFileError('IMPORT_HEADER_NOT_RECOGNISED', input.fileName, input.header.line, `not a ${INFO.label} header`);
    }
    return parseActivityExport(INFO, input, COLUMNS, rowReader(shape), {
      // A second's fills as the file lists them, newest first (the lower row the earlier), those
      // opening a position before those closing one; then the covers, in that order.
      complete: (transactions) => markCovers(inTimeOrder([...transactions].reverse(), (tx) => (isClosingKind(tx.kind) ? 1 : 0)).reverse()),
    });
  },
};

/** Fills with their own columns (`fills`), or only each order's `Filled@Avg Price` (`orders`). */
type Shape = 'fills' | 'orders';

function shapeOf(layout: ColumnLayout<Column> | undefined): Shape | undefined {
  if (layout === undefined) return undefined;
  if (layout.has('fillQuantity') && layout.has('fillPrice') && layout.has('fillTime')) return 'fills';
  if (layout.has('filledAtAverage') && layout.has('orderTime')) return 'orders';
  return undefined;
}

/** The file's rows, each read knowing the order row above it (a fill row carries none of its order's cells). */
function rowReader(shape: Shape): (reader: RowReader<Column>) => BrokerTransaction {
  let order: Order | undefined;
  return (reader) => {
    if (reader.text('side') === '' && reader.text('symbol') === '') {
      if (order === undefined || shape === 'orders') throw reader.missing('side', "a fill row follows its order's row");
      return fillOf(reader, order, null);
    }
    order = orderOf(reader);
    const charges = reader.number('totalFees') ?? chargesOf(...FEES.map((key) => reader.number(key)));
    if (shape === 'orders') return filledOrderOf(reader, order, charges);
    const filled = reader.number('fillQuantity');
    return filled === null || filled.isZero() ? notFilled(reader, order) : fillOf(reader, order, charges);
  };
}

function orderOf(reader: RowReader<Column>): Order {
  const written = reader.requiredText('side', 'every order has a side');
  const side = SIDES.get(written.replace(/\s+/g, ' ').toLowerCase());
  if (side === undefined) throw reader.invalid('side', written, `unknown Side '${written}' (known: Buy, Sell, Short Sell)`);
  const currency = reader.text('currency').toUpperCase();
  const markets = reader.text('markets').toUpperCase();
  const writtenSymbol = reader.requiredText('symbol', 'every order has a symbol').toUpperCase();
  let action = side;
  if (currency !== '' && currency !== 'USD') action = kept(`trade in ${currency}`, 'trade in another currency');
  else if (markets !== '' && markets !== 'US') action = kept(`trade on the ${markets} market`, 'trade on another market');
  else if (OPTION_SYMBOL.test(writtenSymbol)) action = kept('option order', 'option order');
  const symbol = reader.symbol('symbol', classifyAction(action) !== 'other');
  return { action, symbol, description: reader.sharedText('name') };
}

/** The words of a row kept and reported, or `otherwise` where the file's own text would read as a trade or a dividend. */
function kept(what: string, otherwise: string): string {
  const action = otherActivity('moomoo', what);
  return classifyAction(action) === 'other' ? action : otherActivity('moomoo', otherwise);
}

/** A fill, on its order's row or a row of its own; `charges` are the order's, given with its first fill only. */
function fillOf(reader: RowReader<Column>, order: Order, charges: Decimal | null): BrokerTransaction {
  const { date, second } = timeOf(reader, 'fillTime');
  const quantity = reader.number('fillQuantity');
  const price = reader.number('fillPrice');
  if (quantity === null || quantity.isZero()) throw reader.missing('fillQuantity', 'a fill needs a number of shares');
  if (price === null) throw reader.missing('fillPrice', 'a fill needs its price');
  const gross = reader.number('fillAmount')?.abs() ?? quantity.abs().mul(price.abs());
  return trade(reader, order, date, second, quantity, price, gross, charges);
}

/** An order of a history without fill columns: `Filled@Avg Price` (`4@261.6225`; `0@0.00` when none filled). */
function filledOrderOf(reader: RowReader<Column>, order: Order, charges: Decimal | null): BrokerTransaction {
  const written = reader.text('filledAtAverage');
  if (written === '') return notFilled(reader, order);
  const parts = /^([\d,.]+)\s*@\s*\$?([\d,.]+)$/.exec(written);
  const quantity = parts === null ? undefined : Decimal.tryParse(parts[1].replace(/,/g, ''));
  const price = parts === null ? undefined : Decimal.tryParse(parts[2].replace(/,/g, ''));
  if (quantity === undefined || price === undefined) throw reader.invalid('filledAtAverage', written, `'${written}' is not shares@price (4@261.6225)`);
  if (quantity.gt(FIGURE_LIMITS.quantity) || price.gt(FIGURE_LIMITS.price)) {
    throw reader.invalid('filledAtAverage', written, `'${written}' is beyond the limits of shares or price`);
  }
  if (quantity.isZero()) return notFilled(reader, order);
  const { date, second } = timeOf(reader, 'orderTime');
  return trade(reader, order, date, second, quantity, price, quantity.mul(price), charges);
}

function trade(
  reader: RowReader<Column>,
  order: Order,
  date: string,
  second: number,
  quantity: Decimal,
  price: Decimal,
  gross: Decimal,
  charges: Decimal | null,
): BrokerTransaction {
  const kind = classifyAction(order.action);
  const amount = kind === 'other' ? null : grossCash(kind === 'buy' || kind === 'buy_to_cover', gross, charges);
  return rowAt(reader, second, {
    date,
    action: order.action,
    kind,
    symbol: order.symbol,
    description: order.description,
    quantity: quantity.abs(),
    price: price.abs(),
    fees: charges,
    amount,
  });
}

/** An order that filled nothing: kept and reported on its Order Time's day. */
function notFilled(reader: RowReader<Column>, order: Order): BrokerTransaction {
  const status = reader.text('status');
  const { date, second } = timeOf(reader, reader.text('orderTime') !== '' ? 'orderTime' : 'fillTime');
  return rowAt(reader, second, {
    date,
    action: kept(`order not filled${status === '' ? '' : ` (${status})`}`, 'order not filled'),
    kind: 'other',
    symbol: order.symbol,
    description: order.description,
    quantity: null,
    price: null,
    fees: null,
    amount: null,
  });
}

/** The row's transaction at its second of the day, of which `inTimeOrder` makes its day order (higher = earlier). */
function rowAt(reader: RowReader<Column>, second: number, fields: Parameters<typeof activityRow>[2]): BrokerTransaction {
  return { ...activityRow(reader.line, reader.cellsJson, fields), dayOrder: -second };
}

/** The day as written and the second of the day of a moomoo time (`Apr 16, 2026 15:53:57 ET`, `2025/01/01 09:30:00 (ET)`). */
function timeOf(reader: RowReader<Column>, key: 'fillTime' | 'orderTime'): { date: string; second: number } {
  const text = reader.requiredText(key, key === 'fillTime' ? 'every fill has its time' : 'every order has its time');
  const named = NAMED_MONTH_TIME.exec(text);
  const numeric = named === null ? NUMERIC_TIME.exec(text) : null;
  const month = named !== null ? MONTHS.indexOf(named[1].toLowerCase()) + 1 : numeric !== null ? Number(numeric[2]) : 0;
  const [day, year, time] = named !== null ? [named[2], named[3], named[4]] : numeric !== null ? [numeric[3], numeric[1], numeric[4]] : ['', '', undefined];
  const second = time === undefined ? 0 : secondOfDay(time);
  if (month === 0 || second === undefined) {
    throw reader.invalid(key, text, `'${text}' is not a moomoo time (Apr 16, 2026 15:53:57 ET)`);
  }
  // Checked as any date is (a real day, in the supported years); the error quotes the cell.
  const { date } = reader.date(key, makeIsoDate(Number(year), month, Number(day)), text);
  return { date, second };
}
