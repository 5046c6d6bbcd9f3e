import { Decimal } from '@app/shared/domain';
import type { BrokerTransaction } from '../broker-transaction.js';
import { classifyAction, packedTransaction } from '../broker-transaction.js';
import { ImportFileError } from '../import.errors.js';
import { packedLot, type RealizedLot } from '../realized-lot.js';
import { ROWS_PER_TURN, type Steps } from '../turns.js';
import { accountNumberOf, activityRow, otherActivity, parseActivityExport } from './activity-export.js';
import type { BrokerageFormat, FormatInput, ParsedTransactionsFile } from './brokerage-format.js';
import { column, ColumnLayout, columnList, FIGURE_LIMITS, normaliseHeaderCell, RowReader, type ColumnSpec } from './csv-columns.js';
import { rowCellsJson, type CsvRow } from './csv-text.js';

/** The action word a closed-lot row is read under before it leaves the transactions (never stored). */
const CLOSED_LOT = 'IBKR closed lot';

/** The import's action for a stock trade: the side from its sign, opening or closing from IBKR's code. */
function tradeAction(quantity: Decimal, openClose: string): string {
  const codes = openClose.toUpperCase().split(/[;\s]+/);
  const closes = codes.includes('C');
  const opens = codes.includes('O');
  if (quantity.isNegative()) return opens && !closes ? 'Sell Short' : 'Sell';
  return closes && !opens ? 'Buy to Cover' : 'Buy';
}

/** A lot closed by a sale: IBKR gives its quantity, open date, cost basis and realized P&L. */
function closedLot(
  line: number,
  cellsJson: string,
  symbol: string,
  closedDate: string,
  openedDate: string,
  quantity: Decimal,
  basis: Decimal,
  realized: Decimal,
  term: string | null,
): RealizedLot {
  const costBasis = basis.abs();
  return packedLot({
    line,
    symbol,
    name: '',
    closedDate,
    openedDate,
    quantity: quantity.abs(),
    proceedsPerShare: null,
    costPerShare: null,
    proceeds: costBasis.add(realized),
    costBasis,
    gainLoss: realized,
    gainLossPercent: null,
    term,
    washSale: false,
    disallowedLoss: null,
    cellsJson,
    fingerprint: undefined,
  });
}

// ————— Flex Query trades CSV —————

const FLEX_COLUMNS = {
  account: column('ClientAccountID', false),
  currency: column('CurrencyPrimary', false, ['Currency']),
  assetClass: column('AssetClass', false),
  symbol: column('Symbol'),
  description: column('Description', false),
  date: column('TradeDate', true, ['DateTime', 'Date/Time']),
  quantity: column('Quantity', true, [], FIGURE_LIMITS.quantity),
  price: column('TradePrice', true, [], FIGURE_LIMITS.price),
  proceeds: column('Proceeds', false),
  commission: column('IBCommission', false),
  netCash: column('NetCash', false),
  openClose: column('Open/CloseIndicator', false),
  buySell: column('Buy/Sell'),
  costBasis: column('CostBasis', false),
  realized: column('FifoPnlRealized', false),
  levelOfDetail: column('LevelOfDetail', false),
  openDateTime: column('OpenDateTime', false),
};
type FlexColumn = keyof typeof FLEX_COLUMNS;

const FLEX_INFO = { id: 'ibkr-flex-trades', label: 'Interactive Brokers Flex Query Trades' };

/**
 * Interactive Brokers Flex Query, Trades section as CSV (Reports → Flex Queries; "Include column
 * headers" on, section codes off): one row per execution, oldest first, dates `yyyyMMdd` (or with the
 * time, `yyyyMMdd;HHmmss`), signed quantities, `NetCash` net of commission, `Open/CloseIndicator` O or
 * C. With `LevelOfDetail` chosen, its `CLOSED_LOT` rows are IBKR's own closed lots (open date, cost
 * basis, realized P&L) and play the part of lot details for the sales; otherwise every trade is FIFO.
 */
export const ibkrFlexTradesFormat: BrokerageFormat = {
  ...FLEX_INFO,
  accepted: true,
  layout: { broker: 'Interactive Brokers', kind: 'transactions', columns: columnList(FLEX_COLUMNS) },
  recognises: (cells) => ColumnLayout.of(FLEX_COLUMNS, cells) !== undefined,
  parse: function* (input: FormatInput): Steps<ParsedTransactionsFile> {
    const lots: RealizedLot[] = [];
    const file = yield* parseActivityExport(FLEX_INFO, input, FLEX_COLUMNS, (reader) => readFlexRow(reader, lots), {
      oldestFirst: true,
      complete: (transactions) => transactions.filter((tx) => tx.action !== CLOSED_LOT),
      accountColumn: 'account',
    });
    if (file.transactions.length === 0) throw new ImportFileError('IMPORT_NO_DATA_ROWS', input.fileName, input.header.line, 'closed lots but no trades');
    return { ...file, lots };
  },
};

function readFlexRow(reader: RowReader<FlexColumn>, lots: RealizedLot[]): BrokerTransaction {
  const { date } = reader.day('date');
  const level = reader.text('levelOfDetail').toUpperCase();
  const quantity = reader.requiredNumber('quantity', 'every trade has a quantity');
  const assetClass = reader.text('assetClass').toUpperCase();
  const currency = reader.text('currency').toUpperCase();
  const shares = (assetClass === '' || assetClass === 'STK') && (currency === '' || currency === 'USD');
  const side = reader.requiredText('buySell', 'every trade is a BUY or a SELL').toUpperCase();
  if (level === 'CLOSED_LOT') {
    // The lot and the row kept for the record share one text of the row's cells.
    const cellsJson = reader.cellsJson;
    if (shares && side === 'SELL') {
      const opened = reader.day('openDateTime').date;
      const realized = reader.requiredNumber('realized', 'a closed lot gives its realized P&L');
      lots.push(closedLot(reader.line, cellsJson, reader.symbol('symbol', true), date, opened, quantity, reader.requiredNumber('costBasis', 'a closed lot gives its cost basis'), realized, null));
    }
    return { ...blank(reader, date, cellsJson), action: CLOSED_LOT };
  }
  let action: string;
  if (level !== '' && level !== 'EXECUTION' && level !== 'ORDER') action = otherActivity('IBKR', `${level.toLowerCase()} row`);
  else if (!shares) action = otherActivity('IBKR', `${assetClass || 'non-stock'} trade${currency === '' || currency === 'USD' ? '' : ` in ${currency}`}`);
  else if (side !== 'BUY' && side !== 'SELL') action = otherActivity('IBKR', `trade marked ${side}`);
  else action = tradeAction(side === 'SELL' ? quantity.abs().neg() : quantity.abs(), reader.text('openClose'));
  const kind = classifyAction(action);
  const price = reader.number('price');
  const commission = reader.number('commission');
  const proceeds = reader.number('proceeds');
  const netCash = reader.number('netCash');
  const gross = proceeds ?? (price === null ? null : (side === 'SELL' ? quantity.abs() : quantity.abs().neg()).mul(price));
  return {
    ...blank(reader, date),
    action,
    kind,
    symbol: kind === 'other' ? reader.symbol('symbol', false) : reader.symbol('symbol', true),
    quantity: quantity.abs(),
    price,
    fees: commission === null ? null : commission.abs(),
    amount: netCash ?? (gross === null ? null : commission === null ? gross : gross.add(commission)),
  };
}

function blank(reader: RowReader<FlexColumn>, date: string, cellsJson = reader.cellsJson): BrokerTransaction {
  return activityRow(reader.line, cellsJson, { date, action: '', kind: 'other', symbol: '', description: reader.sharedText('description'), quantity: null, price: null, fees: null, amount: null });
}

// ————— Activity Statement CSV —————

const TRADES = {
  discriminator: column('DataDiscriminator'),
  assetCategory: column('Asset Category'),
  currency: column('Currency'),
  symbol: column('Symbol'),
  dateTime: column('Date/Time'),
  quantity: column('Quantity', true, [], FIGURE_LIMITS.quantity),
  price: column('T. Price', true, [], FIGURE_LIMITS.price),
  proceeds: column('Proceeds'),
  commission: column('Comm/Fee', true, ['Comm in USD']),
  basis: column('Basis'),
  realized: column('Realized P/L'),
  code: column('Code'),
};
const CASH = {
  currency: column('Currency'),
  date: column('Date', true, ['Settle Date']),
  description: column('Description'),
  amount: column('Amount'),
};

/** Sections of a statement that move cash without being trades or dividends: kept and reported. */
const OTHER_SECTIONS: ReadonlyMap<string, string> = new Map([
  ['withholding tax', 'withholding tax'],
  ['deposits & withdrawals', 'deposit or withdrawal'],
  ['interest', 'interest'],
  ['fees', 'fee'],
  ['corporate actions', 'corporate action'],
  ['payment in lieu of dividends', 'payment in lieu'],
]);

const STATEMENT_INFO = { id: 'ibkr-activity-statement', label: 'Interactive Brokers Activity Statement' };

/**
 * Interactive Brokers Activity Statement as CSV (Reports → Statements → Activity, format CSV): every
 * row starts with its section and its kind (`Trades,Header,…`, `Trades,Data,…`, `Total`, `SubTotal`,
 * `Notes`); the Trades section lists each order (`Order`, oldest first within a symbol) followed by the
 * lots it closed (`ClosedLot`: open date, quantity, basis, realized P&L), the Dividends section one row
 * per payment. Stock trades in USD and dividends count; closed lots of sales are IBKR's lot details;
 * withholding tax, deposits, interest, fees and corporate actions are kept and reported; the summary
 * sections (net asset value, positions, performance) are not transactions and are read past.
 */
export const ibkrActivityStatementFormat: BrokerageFormat = {
  ...STATEMENT_INFO,
  accepted: true,
  layout: {
    broker: 'Interactive Brokers',
    kind: 'transactions',
    columns: [{ name: 'Statement', required: true }, { name: 'Header', required: true }, ...columnList(TRADES), ...columnList(CASH).map((entry) => ({ ...entry, required: false }))],
  },
  recognises: (cells) => cells.length >= 2 && normaliseHeaderCell(cells[0]) === 'statement' && normaliseHeaderCell(cells[1]) === 'header',
  parse: parseStatement,
};

interface Section<K extends string> {
  readonly specs: Readonly<Record<K, ColumnSpec>>;
  layout: ColumnLayout<K> | undefined;
}

function* parseStatement({ fileName, header, rows }: FormatInput): Steps<ParsedTransactionsFile> {
  const trades: Section<keyof typeof TRADES> = { specs: TRADES, layout: undefined };
  const cash = new Map<string, Section<keyof typeof CASH>>();
  const transactions: BrokerTransaction[] = [];
  const lots: RealizedLot[] = [];
  let closing: BrokerTransaction | null = null;
  let accountNumber: string | undefined;
  for (const [index, row] of rows.entries()) {
    if (index > 0 && index % ROWS_PER_TURN === 0) yield;
    const section = normaliseHeaderCell(row.cells[0] ?? '');
    const rowKind = normaliseHeaderCell(row.cells[1] ?? '');
    if (section === 'account information' && rowKind === 'data' && normaliseHeaderCell(row.cells[2] ?? '') === 'account') {
      // `U1234567 (Custom Consolidated)` in a consolidated statement: the number is the first word.
      accountNumber = accountNumberOf((row.cells[3] ?? '').trim().split(/\s+/)[0]);
    }
    const fields: CsvRow = { line: row.line, cells: row.cells.slice(2), json: undefined };
    const isCash = section === 'dividends' || OTHER_SECTIONS.has(section);
    if (section !== 'trades' && !isCash) continue;
    if (rowKind === 'header') {
      const specs = section === 'trades' ? TRADES : CASH;
      const layout = ColumnLayout.of<string>(specs, fields.cells);
      if (layout === undefined) throw ImportFileError.malformedCsv(fileName, row.line, `the ${row.cells[0]} header lacks columns the import reads (${columnList(specs).filter((entry) => entry.required).map((entry) => entry.name).join(', ')})`);
      if (section === 'trades') trades.layout = layout as ColumnLayout<keyof typeof TRADES>;
      else cash.set(section, { specs: CASH, layout: layout as ColumnLayout<keyof typeof CASH> });
      continue;
    }
    if (rowKind !== 'data') continue; // Total, SubTotal, Notes
    if (section === 'trades') {
      if (trades.layout === undefined) throw ImportFileError.malformedCsv(fileName, row.line, 'a Trades row before the Trades header');
      const reader = new RowReader(fileName, fields, trades.layout, TRADES);
      const discriminator = reader.text('discriminator').toUpperCase();
      if (discriminator === 'CLOSEDLOT') {
        if (closing !== null && closing.kind === 'sell') {
          const { date: opened } = reader.day('dateTime');
          const term = reader.text('code').toUpperCase();
          lots.push(closedLot(row.line, rowCellsJson(row), closing.symbol, closing.date, opened, reader.requiredNumber('quantity'), reader.requiredNumber('basis', 'a closed lot gives its basis'), reader.requiredNumber('realized', 'a closed lot gives its realized P&L'), term === 'LT' ? 'Long Term' : term === 'ST' ? 'Short Term' : null));
        }
        continue;
      }
      if (discriminator !== 'ORDER' && discriminator !== 'TRADE' && discriminator !== 'EXECUTION') continue;
      closing = readStatementTrade(reader, row);
      transactions.push(closing);
      continue;
    }
    const layout = cash.get(section)?.layout;
    if (layout === undefined) throw ImportFileError.malformedCsv(fileName, row.line, `a ${row.cells[0]} row before its header`);
    const reader = new RowReader(fileName, fields, layout, CASH);
    if (/^total/i.test(reader.text('currency'))) continue;
    transactions.push(packedTransaction(readCashRow(reader, row, section)));
  }
  if (transactions.length === 0) throw new ImportFileError('IMPORT_NO_DATA_ROWS', fileName, header.line, 'no trades or dividends in the statement');
  return {
    kind: 'transactions',
    format: STATEMENT_INFO,
    fileName,
    headerLine: header.line,
    dataRows: transactions.length + lots.length,
    transactions,
    lots,
    ...(accountNumber === undefined ? {} : { accountNumber }),
  };
}

function readStatementTrade(reader: RowReader<keyof typeof TRADES>, row: CsvRow): BrokerTransaction {
  const { date } = reader.day('dateTime');
  const quantity = reader.requiredNumber('quantity', 'every trade has a quantity');
  const category = reader.text('assetCategory');
  const currency = reader.text('currency').toUpperCase();
  const action = category.toLowerCase() !== 'stocks' ? otherActivity('IBKR', `${category} trade`) : currency !== 'USD' ? otherActivity('IBKR', `stock trade in ${currency}`) : tradeAction(quantity, reader.text('code'));
  const kind = classifyAction(action);
  const proceeds = reader.number('proceeds');
  const commission = reader.number('commission');
  const trade = activityRow(row.line, rowCellsJson(row), {
    date,
    action,
    kind,
    symbol: kind === 'other' ? reader.symbol('symbol', false) : reader.symbol('symbol', true),
    description: '',
    quantity: quantity.abs(),
    price: reader.number('price'),
    fees: commission === null ? null : commission.abs(),
    amount: proceeds === null ? null : commission === null ? proceeds : proceeds.add(commission),
  });
  // The statement lists a symbol's day oldest first.
  return packedTransaction(trade, { dayOrder: -row.line });
}

/** `AAPL(US0378331005) Cash Dividend USD 0.24 per Share (Ordinary Dividend)` → AAPL. */
const DESCRIBED_SYMBOL = /^\s*([A-Z0-9.]+)\s*\(/;

function readCashRow(reader: RowReader<keyof typeof CASH>, row: CsvRow, section: string): BrokerTransaction {
  const { date } = reader.day('date');
  const description = reader.sharedText('description');
  const currency = reader.text('currency').toUpperCase();
  const dividend = section === 'dividends' && currency === 'USD';
  // Named so that nothing reads it as a dividend again (a payout in another currency is not counted).
  const what = section === 'dividends' ? 'payout' : (OTHER_SECTIONS.get(section) ?? section);
  const action = dividend ? 'Cash Dividend' : otherActivity('IBKR', `${what}${currency === 'USD' ? '' : ` in ${currency}`}`);
  const symbol = DESCRIBED_SYMBOL.exec(description)?.[1] ?? '';
  if (dividend && symbol === '') throw reader.invalid('description', description, 'a dividend names its symbol first, as in AAPL(US0378331005) Cash Dividend …');
  return activityRow(row.line, rowCellsJson(row), {
    date,
    action,
    kind: classifyAction(action),
    symbol,
    description,
    quantity: null,
    price: null,
    fees: null,
    amount: dividend ? reader.requiredNumber('amount', 'a dividend gives its amount') : reader.number('amount'),
  });
}
