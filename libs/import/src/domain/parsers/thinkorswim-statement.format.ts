import type { Decimal } from '@app/shared/domain';
import type { BrokerTransaction } from '../broker-transaction.js';
import { classifyAction, packedTransaction, transactionWith } from '../broker-transaction.js';
import { groupBy } from '../group-by.js';
import { ImportFileError } from '../import.errors.js';
import { ROWS_PER_TURN, type Steps } from '../turns.js';
import { accountNumberOf, activityRow, chargesOf, isNote, otherActivity, secondOfDay } from './activity-export.js';
import type { BrokerageFormat, FormatInput, ParsedTransactionsFile } from './brokerage-format.js';
import { column, ColumnLayout, columnList, FIGURE_LIMITS, normaliseHeaderCell, RowReader } from './csv-columns.js';
import { tryParseAmount } from './broker-figures.js';
import type { CsvRow } from './csv-text.js';

/** The statement's Cash Balance section: every entry of the account's cash, trades included. */
const CASH = {
  date: column('DATE'),
  time: column('TIME'),
  type: column('TYPE'),
  ref: column('REF #'),
  description: column('DESCRIPTION'),
  miscFees: column('Misc Fees'),
  commissions: column('Commissions & Fees'),
  amount: column('AMOUNT'),
  balance: column('BALANCE'),
};

/** Its Account Trade History section: each fill with its position effect (what tells a short sale from a sale). */
const FILLS = {
  execTime: column('Exec Time'),
  side: column('Side'),
  quantity: column('Qty', true, [], FIGURE_LIMITS.quantity),
  posEffect: column('Pos Effect'),
  symbol: column('Symbol'),
  type: column('Type'),
  price: column('Price', true, [], FIGURE_LIMITS.price),
};

/** A stock fill as the Cash Balance describes it: `BOT +300 AMZN @9.6399`, `KEY: F2 SOLD -2,180 AIFF @1.7117`. */
const STOCK_FILL = /^(?:KEY: \S+\s+)?(BOT|SOLD)\s+([+-]?\d[\d,]{0,14}(?:\.\d{1,8})?)\s+([A-Z0-9][A-Z0-9./^-]{0,19})\s+@\s*(\d[\d,]{0,14}(?:\.\d{1,8})?)$/;
/** Any other fill: an option, a spread, a money-market fund bought `UPON` a sweep. */
const OTHER_FILL = /^(?:KEY: \S+\s+)?(BOT|SOLD)\b/;
/** The symbol a dividend's description names: `ORDINARY DIVIDEND~AAPL`, `QUALIFIED DIVIDEND (AAPL)`. */
const DIVIDEND_SYMBOL = /(?:~\s*|\()([A-Z0-9][A-Z0-9./-]{0,19})\)?\s*$/;

/** The file's title: `Account Statement for 00*****78 (margin) since 1/2/24 through 6/21/24`. */
const ACCOUNT_TITLE = /^\s*account statement for\s+(\S+)/i;

const INFO = { id: 'thinkorswim-statement', label: 'thinkorswim Account Statement' };

/**
 * thinkorswim's Account Statement (Monitor → Account Statement → Export to File; Schwab's thinkorswim
 * and TD Ameritrade's before it): sections one after another, each with its own header. The Cash
 * Balance section is read for the account's activity, in time order: stock fills
 * (`BOT +300 AMZN @9.6399`, `SOLD -100 AMZN @9.65`, a hotkey's `KEY: F2` before them) with their fees
 * (`Misc Fees`, `Commissions & Fees`, negative) beside the gross `AMOUNT`; dividends (`DIV`); every other
 * entry is kept and reported, the daily balance lines (`BAL`) are not activity and are left out. The
 * Account Trade History section's `Pos Effect` tells which sales opened a short (`SELL … TO OPEN`) and
 * which purchases covered one (`BUY … TO CLOSE`). The other sections (orders, futures, forex,
 * positions, P&L, summary) are read past. The account is the title's (`Account Statement for …`).
 */
export const thinkorswimStatementFormat: BrokerageFormat = {
  ...INFO,
  accepted: true,
  layout: { broker: 'thinkorswim', kind: 'transactions', columns: [...columnList(CASH), ...columnList(FILLS).map((entry) => ({ ...entry, required: false }))] },
  recognises: (cells) => ColumnLayout.of(CASH, cells) !== undefined,
  parse: parseStatement,
};

/** A fill's key between the two sections: its day, symbol, shares and price. */
const fillKey = (date: string, symbol: string, quantity: Decimal, price: Decimal): string => `${date} ${symbol} ${quantity.abs().toString()} ${price.toString()}`;

function* parseStatement({ fileName, titles = [], header, rows }: FormatInput): Steps<ParsedTransactionsFile> {
  const cash = ColumnLayout.of(CASH, header.cells) as ColumnLayout<keyof typeof CASH>;
  const transactions: BrokerTransaction[] = [];
  /** The stock fills of the Cash Balance, in time order: where each sits among the transactions. */
  const fills: { key: string; place: number }[] = [];
  /** The Trade History's fills: their position effects, with their exec times. */
  const effects: { key: string; second: number; line: number; opening: boolean }[] = [];
  let section: 'cash' | 'between' | 'history' | 'history-header' = 'cash';
  let history: ColumnLayout<keyof typeof FILLS> | undefined;
  for (const [index, row] of rows.entries()) {
    if (index > 0 && index % ROWS_PER_TURN === 0) yield;
    if (isNote(row)) {
      const title = normaliseHeaderCell(row.cells.find((cell) => cell.trim() !== '') ?? '');
      section = title === 'account trade history' ? 'history-header' : 'between';
      continue;
    }
    if (section === 'history-header') {
      history = ColumnLayout.of(FILLS, row.cells);
      if (history === undefined) throw ImportFileError.malformedCsv(fileName, row.line, `the Account Trade History header lacks columns the import reads (${columnList(FILLS).map((entry) => entry.name).join(', ')})`);
      section = 'history';
      continue;
    }
    if (section === 'history' && history !== undefined) {
      const reader = new RowReader(fileName, row, history, FILLS);
      const [day, time = ''] = reader.requiredText('execTime', 'every fill has its time').split(/\s+/);
      const { date } = reader.date('execTime', day, reader.text('execTime'));
      const symbol = reader.symbol('symbol', false);
      const shares = tryParseAmount(reader.text('quantity').replace(/^\+/, ''));
      if (shares === undefined) throw reader.invalid('quantity', reader.text('quantity'), 'every fill has its shares');
      const key = fillKey(date, symbol, shares, reader.requiredNumber('price', 'every fill has its price'));
      const opening = /to open/i.test(reader.text('posEffect'));
      // A fill without a time that reads counts from the day's start.
      effects.push({ key, second: secondOfDay(time) ?? 0, line: row.line, opening });
      continue;
    }
    if (section !== 'cash') continue;
    const reader = new RowReader(fileName, row, cash, CASH);
    // `,,,,TOTAL,$0.51,,$18.05,…` ends the section.
    if (reader.text('date') === '' && /^total$/i.test(reader.text('description'))) {
      section = 'between';
      continue;
    }
    const type = reader.requiredText('type', 'every entry has a type').toUpperCase();
    if (type === 'BAL') continue;
    const transaction = readCashRow(reader, row, type);
    const fill = transaction.kind === 'buy' || transaction.kind === 'sell' ? fillKey(transaction.date, transaction.symbol, transaction.quantity as Decimal, transaction.price as Decimal) : undefined;
    if (fill !== undefined) fills.push({ key: fill, place: transactions.length });
    transactions.push(packedTransaction(transaction, { dayOrder: -row.line }));
  }
  if (transactions.length === 0) throw new ImportFileError('IMPORT_NO_DATA_ROWS', fileName, header.line, 'no activity in the Cash Balance');
  // The n-th fill of a key in the Cash Balance is the n-th of the Trade History in time order.
  const effectsByKey = groupBy(effects, (fill) => fill.key);
  for (const [key, places] of groupBy(fills, (fill) => fill.key)) {
    // Listed newest first: of one second, the lower line came first.
    const found = [...(effectsByKey.get(key) ?? [])].sort((a, b) => a.second - b.second || b.line - a.line);
    places.forEach(({ place }, nth) => {
      const tx = transactions[place];
      if (found[nth]?.opening === true && tx.kind === 'sell') transactions[place] = transactionWith(tx, { action: 'Sell Short', kind: 'sell_short' });
      if (found[nth]?.opening === false && tx.kind === 'buy') transactions[place] = transactionWith(tx, { action: 'Buy to Cover', kind: 'buy_to_cover' });
    });
  }
  const titled = titles.map((title) => ACCOUNT_TITLE.exec(title.cells.find((cell) => cell.trim() !== '') ?? '')).find((match): match is RegExpExecArray => match !== null);
  const accountNumber = titled === undefined ? undefined : accountNumberOf(titled[1]);
  return { kind: 'transactions', format: INFO, fileName, headerLine: header.line, dataRows: transactions.length, transactions, ...(accountNumber === undefined ? {} : { accountNumber }) };
}

function readCashRow(reader: RowReader<keyof typeof CASH>, row: CsvRow, type: string): BrokerTransaction {
  const { date } = reader.day('date');
  const description = reader.sharedText('description');
  const written = reader.number('amount');
  const fees = chargesOf(reader.number('miscFees'), reader.number('commissions'));
  // The cash the entry moved: the gross amount and its (negative) fees.
  const amount = written === null ? null : fees === null ? written : written.add(fees);
  const base = { date, description, fees: fees === null ? null : fees.abs(), amount };
  const stock = type === 'TRD' ? STOCK_FILL.exec(description.toUpperCase()) : null;
  if (stock !== null) {
    if (written === null) throw reader.missing('amount', 'a fill needs its amount');
    const quantity = tryParseAmount(stock[2].replace(/^\+/, ''));
    const price = tryParseAmount(stock[4]);
    if (quantity === undefined || quantity.isZero() || price === undefined) throw reader.invalid('description', description, 'a fill is written as BOT +100 AAPL @185.00');
    const action = stock[1] === 'BOT' ? 'Buy' : 'Sell';
    return activityRow(row.line, reader.cellsJson, { ...base, action, kind: classifyAction(action), symbol: stock[3], quantity: quantity.abs(), price });
  }
  const symbol = type === 'DIV' ? (DIVIDEND_SYMBOL.exec(description.toUpperCase())?.[1] ?? '') : '';
  const dividend = symbol !== '' && written !== null;
  const action = dividend
    ? /qualified/i.test(description) && !/non-qualified/i.test(description)
      ? 'Qualified Dividend'
      : 'Cash Dividend'
    : keptAs(type === 'TRD' && OTHER_FILL.test(description.toUpperCase()) ? 'trade of another instrument' : type === 'DIV' ? 'payout without a symbol' : `${type.slice(0, 20)} entry`);
  return activityRow(row.line, reader.cellsJson, { ...base, action, kind: classifyAction(action), symbol, quantity: null, price: null });
}

/** A kept entry's action word, never one that reads as a trade or a dividend (a file's own TYPE may say DIVIDEND). */
function keptAs(what: string): string {
  const action = otherActivity('thinkorswim', what);
  return classifyAction(action) === 'other' ? action : otherActivity('thinkorswim', 'entry');
}
