import type { BrokerTransaction } from '../broker-transaction.js';
import { ImportFileError } from '../import.errors.js';
import { ROWS_PER_TURN, type Steps } from '../turns.js';
import type { BrokerageFormat, FormatInfo, FormatInput, ParsedTransactionsFile } from './brokerage-format.js';
import { ColumnLayout, columnList, RowReader, type ColumnSpec } from './csv-columns.js';

/** A row with at most one non-empty cell: a disclaimer or "Date downloaded" line. */
const isNote = (cells: readonly string[]): boolean => cells.filter((cell) => cell.trim() !== '').length <= 1;

/**
 * Reads an activity export (one transaction per row, then disclaimer lines): each data row through
 * `read`; note rows before the first transaction are skipped, and after it they close the data (a data
 * row after them is refused, as is the header repeated). Yields every ROWS_PER_TURN rows.
 */
export function* parseActivityExport<K extends string>(
  info: FormatInfo,
  { fileName, header, rows }: FormatInput,
  specs: Readonly<Record<K, ColumnSpec>>,
  read: (reader: RowReader<K>, cells: readonly string[]) => BrokerTransaction,
): Steps<ParsedTransactionsFile> {
  const layout = ColumnLayout.of(specs, header.cells);
  if (!layout) {
    throw new ImportFileError('IMPORT_HEADER_NOT_RECOGNISED', fileName, header.line, `not a ${info.label} header`);
  }
  const transactions: BrokerTransaction[] = [];
  let ended = false;
  for (const [index, row] of rows.entries()) {
    if (index > 0 && index % ROWS_PER_TURN === 0) yield;
    if (isNote(row.cells)) {
      ended = transactions.length > 0;
      continue;
    }
    if (ended) {
      throw ImportFileError.malformedCsv(fileName, row.line, 'a data row after the closing disclaimer');
    }
    if (layout.isHeaderAgain(row.cells)) {
      throw ImportFileError.malformedCsv(fileName, row.line, 'the header row appears again (several exports in one file?); upload one export per file');
    }
    transactions.push(read(new RowReader(fileName, row, layout, specs), row.cells));
  }
  if (transactions.length === 0) {
    throw new ImportFileError('IMPORT_NO_DATA_ROWS', fileName, header.line, 'no activity after the header');
  }
  return { kind: 'transactions', format: info, fileName, headerLine: header.line, dataRows: transactions.length, transactions };
}

/**
 * A broker's activity export as a layout: recognised by its columns, read by `parseActivityExport`
 * with the layout's own row reader.
 */
export function activityExportFormat<K extends string>(
  info: FormatInfo,
  broker: string,
  specs: Readonly<Record<K, ColumnSpec>>,
  read: (reader: RowReader<K>, cells: readonly string[]) => BrokerTransaction,
): BrokerageFormat {
  return {
    ...info,
    accepted: true,
    layout: { broker, kind: 'transactions', columns: columnList(specs) },
    recognises: (headerCells) => ColumnLayout.of(specs, headerCells) !== undefined,
    parse: (input: FormatInput) => parseActivityExport(info, input, specs, read),
  };
}
