import type { BrokerTransaction } from '../broker-transaction.js';
import { classifyAction, isTradeKind } from '../broker-transaction.js';
import { ImportFileError } from '../import.errors.js';
import { activityRow, otherActivity, parseActivityExport } from './activity-export.js';
import type { BrokerageFormat, FormatInput } from './brokerage-format.js';
import { column, ColumnLayout, columnList, FIGURE_LIMITS, type RowReader } from './csv-columns.js';

const COLUMNS = {
  accountNumber: column('Account Number'),
  tradeDate: column('Trade Date'),
  settlementDate: column('Settlement Date', false),
  type: column('Transaction Type'),
  transactionDescription: column('Transaction Description', false),
  investmentName: column('Investment Name'),
  symbol: column('Symbol'),
  shares: column('Shares', true, [], FIGURE_LIMITS.quantity),
  sharePrice: column('Share Price', true, [], FIGURE_LIMITS.price),
  principalAmount: column('Principal Amount', false),
  fees: column('Commissions and Fees', false, ['Commission Fees']),
  netAmount: column('Net Amount'),
  accruedInterest: column('Accrued Interest', false),
  accountType: column('Account Type', false),
};
type Column = keyof typeof COLUMNS;

/** The holdings table Vanguard writes first in the same file (read past, not imported). */
const HOLDINGS = {
  accountNumber: column('Account Number'),
  investmentName: column('Investment Name'),
  symbol: column('Symbol'),
  shares: column('Shares'),
  sharePrice: column('Share Price'),
  totalValue: column('Total Value'),
};

/** Vanguard's transaction types, as the import's action words (compared in lower case). */
const ACTIONS: ReadonlyMap<string, string> = new Map([
  ['buy', 'Buy'],
  ['sell', 'Sell'],
  ['reinvestment', 'Reinvest Shares'],
  ['dividend', 'Cash Dividend'],
  ['capital gain (lt)', 'Long Term Cap Gain'],
  ['capital gain (st)', 'Short Term Cap Gain'],
  ['stock split', 'Stock Split'],
]);

const INFO = { id: 'vanguard-transactions', label: 'Vanguard Brokerage Transactions' };
/** Every row names its account. */
const OPTIONS = { accountColumn: 'accountNumber' };

/**
 * Vanguard "Download center" CSV (`OfxDownload.csv`) of a brokerage account: a holdings table first
 * (`Account Number, Investment Name, Symbol, Shares, Share Price, Total Value`), blank lines, then the
 * transactions (`Account Number, Trade Date, …, Net Amount, Accrued Interest, Account Type`) newest
 * first, every row ending with an empty cell; sales with negative Shares, signed net amounts. Sweeps
 * into and out of the money market fund, transfers and fees are kept and reported. No lot details:
 * every trade is FIFO.
 */
export const vanguardTransactionsFormat: BrokerageFormat = {
  ...INFO,
  accepted: true,
  layout: { broker: 'Vanguard', kind: 'transactions', columns: columnList(COLUMNS) },
  recognises: (cells) => ColumnLayout.of(COLUMNS, cells) !== undefined || isHoldingsHeader(cells),
  parse: (input: FormatInput) => {
    if (!isHoldingsHeader(input.header.cells)) return parseActivityExport(INFO, input, COLUMNS, readTransaction, OPTIONS);
    // The holdings come first: the transactions start at their own header.
    for (const row of input.rows) {
      if (ColumnLayout.of(COLUMNS, row.cells) !== undefined) return parseActivityExport(INFO, { fileName: input.fileName, header: row, rows: input.rows }, COLUMNS, readTransaction, OPTIONS);
    }
    throw new ImportFileError('IMPORT_NO_DATA_ROWS', input.fileName, input.header.line, 'holdings only: the file has no transactions table');
  },
};

function isHoldingsHeader(cells: readonly string[]): boolean {
  const holdings = ColumnLayout.of(HOLDINGS, cells);
  return holdings !== undefined && holdings.width === Object.keys(HOLDINGS).length;
}

function readTransaction(reader: RowReader<Column>): BrokerTransaction {
  const { date } = reader.date('tradeDate');
  const type = reader.requiredText('type', 'every transaction has a type').replace(/\s+/g, ' ');
  const action = ACTIONS.get(type.toLowerCase()) ?? otherActivity('Vanguard', type);
  const kind = classifyAction(action);
  const symbol = kind === 'other' ? reader.symbol('symbol', false) : reader.symbol('symbol', true);
  const shares = reader.number('shares');
  const amount = reader.number('netAmount');
  const fees = reader.number('fees');
  if (isTradeKind(kind) || kind === 'stock_split') {
    if (symbol === '') throw reader.missing('symbol', `a ${type} needs a symbol`);
    if (shares === null || shares.isZero()) throw reader.missing('shares', `a ${type} needs a number of shares`);
  }
  if (isTradeKind(kind) && amount === null) throw reader.missing('netAmount', `a ${type} needs its net amount`);
  return activityRow(reader.line, reader.cellsJson, {
    date,
    action,
    kind,
    symbol,
    description: reader.text('investmentName'),
    quantity: shares === null ? null : shares.abs(),
    price: reader.number('sharePrice'),
    fees: fees === null ? null : fees.abs(),
    amount,
  });
}
