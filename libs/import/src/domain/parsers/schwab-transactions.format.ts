import {
  classifyAction,
  isTradeKind,
  packedTransaction,
  type BrokerTransaction,
} from '../broker-transaction.js';
import { ImportFileError } from '../import.errors.js';
import { ROWS_PER_TURN, type Steps } from '../turns.js';
import type { BrokerageFormat, FormatInput, ParsedTransactionsFile } from './brokerage-format.js';
import { column, ColumnLayout, columnList, FIGURE_LIMITS, RowReader } from './csv-columns.js';
import { cellOf, type CsvRow } from './csv-text.js';
import { DayDigests } from './file-days.js';

const COLUMNS = {
  date: column('Date'),
  action: column('Action'),
  symbol: column('Symbol'),
  description: column('Description'),
  quantity: column('Quantity', true, [], FIGURE_LIMITS.quantity),
  price: column('Price', true, [], FIGURE_LIMITS.price),
  fees: column('Fees & Comm', true, ['Fees & Commissions']),
  amount: column('Amount'),
};
type Column = keyof typeof COLUMNS;

const FOOTER = /^transactions total\b/i;

/**
 * Charles Schwab "Transactions" export, old layout (title line, `Transactions Total` footer, trailing
 * empty column) and current layout (header and rows only).
 */
const INFO = { id: 'schwab-transactions', label: 'Charles Schwab Transactions' };

export const schwabTransactionsFormat: BrokerageFormat = {
  ...INFO,
  accepted: true,
  readsUnderLock: true,
  layout: { broker: 'Charles Schwab', kind: 'transactions', columns: columnList(COLUMNS) },

  recognises(headerCells) {
    return ColumnLayout.of(COLUMNS, headerCells) !== undefined;
  },

  *parse({ fileName, header, rows, seen, transactionsSoFar }: FormatInput): Steps<ParsedTransactionsFile> {
    const layout = ColumnLayout.of(COLUMNS, header.cells);
    if (!layout) {
      throw new ImportFileError('IMPORT_HEADER_NOT_RECOGNISED', fileName, header.line, 'not a Schwab Transactions header');
    }
    const transactions: BrokerTransaction[] = [];
    const days = new DayDigests(INFO.id, header, seen?.get(INFO.id));
    for (const [index, row] of rows.entries()) {
      if (index > 0 && index % ROWS_PER_TURN === 0) {
        transactionsSoFar?.(transactions);
        yield;
      }
      if (FOOTER.test(cellOf(row, 0)?.trim() ?? '')) {
        continue;
      }
      if (layout.isHeaderAgain(row)) {
        throw ImportFileError.repeatedHeader(fileName, row.line);
      }
      const reader = new RowReader(fileName, row, layout, COLUMNS);
      if (days.putAside(reader.date('date').date, row)) continue;
      transactions.push(readTransaction(reader));
    }
    layout.forgetReadings(); // the layout lives on with the rows put aside (`days`), its memos need not
    const fileDays = days.finish((waiting: readonly CsvRow[]) => waiting.map((row) => readTransaction(new RowReader(fileName, row, layout, COLUMNS))));
    if (transactions.length + fileDays.waitingRows === 0) {
      throw new ImportFileError('IMPORT_NO_DATA_ROWS', fileName, header.line, 'no transactions after the header');
    }
    return {
      kind: 'transactions',
      format: INFO,
      fileName,
      headerLine: header.line,
      dataRows: transactions.length + fileDays.waitingRows,
      transactions,
      days: fileDays,
    };
  },
};

function readTransaction(reader: RowReader<Column>): BrokerTransaction {
  const { date, asOf } = reader.date('date');
  const action = reader.requiredText('action');
  const kind = classifyAction(action);
  // Where the symbol names what was traded or paid a dividend, it must be a ticker.
  const symbol = reader.symbol('symbol', kind !== 'other');
  const quantity = reader.number('quantity');
  const price = reader.number('price');
  const fees = reader.number('fees');
  const amount = reader.number('amount');

  if (isTradeKind(kind) || kind === 'stock_split' || kind === 'reverse_split') {
    if (symbol === '') {
      throw reader.missing('symbol', `a ${action} needs a symbol`);
    }
    if (quantity === null) {
      throw reader.missing('quantity', `a ${action} needs a quantity`);
    }
  }
  if (isTradeKind(kind)) {
    const shares = quantity as NonNullable<typeof quantity>;
    if (shares.isNegative()) {
      throw reader.invalid('quantity', reader.text('quantity'), `negative quantity '${reader.text('quantity')}' (the Action gives the direction)`);
    }
    if (shares.isZero()) {
      throw reader.invalid('quantity', reader.text('quantity'), `a ${action} of 0 shares`);
    }
    if (amount === null && price === null) {
      throw reader.missing('amount', 'and there is no Price to compute it from');
    }
  }
  if ((kind === 'stock_split' || kind === 'reverse_split') && quantity?.isZero()) {
    throw reader.invalid('quantity', reader.text('quantity'), `a ${action} of 0 shares`);
  }

  return packedTransaction({
    line: reader.line,
    date,
    asOfDate: asOf,
    action,
    kind,
    symbol,
    description: reader.sharedText('description'),
    quantity,
    price,
    fees,
    amount,
    cellsJson: reader.cellsJson,
    fingerprint: undefined, // set by the caller (fingerprint.ts)
  });
}
