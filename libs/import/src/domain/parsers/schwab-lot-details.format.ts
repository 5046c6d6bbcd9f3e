import { ImportFileError } from '../import.errors.js';
import { ROWS_PER_TURN, type Steps } from '../turns.js';
import { packedLot, type RealizedLot } from '../realized-lot.js';
import type { BrokerageFormat, FormatInput, ParsedRealizedLotsFile } from './brokerage-format.js';
import { column, ColumnLayout, columnList, FIGURE_LIMITS, RowReader } from './csv-columns.js';
import type { CsvRow } from './csv-text.js';
import { DayDigests } from './file-days.js';

const COLUMNS = {
  symbol: column('Symbol'),
  name: column('Name', false),
  closedDate: column('Closed Date'),
  openedDate: column('Opened Date'),
  quantity: column('Quantity', true, [], FIGURE_LIMITS.quantity),
  proceedsPerShare: column('Proceeds Per Share', false, [], FIGURE_LIMITS.price),
  costPerShare: column('Cost Per Share', false, [], FIGURE_LIMITS.price),
  proceeds: column('Proceeds'),
  costBasis: column('Cost Basis (CB)', true, ['Cost Basis']),
  gainLoss: column('Gain/Loss ($)', true, ['Gain/Loss']),
  gainLossPercent: column('Gain/Loss (%)', false),
  term: column('Term', false),
  washSale: column('Wash Sale?', false, ['Wash Sale']),
  disallowedLoss: column('Disallowed Loss', false),
};
type Column = keyof typeof COLUMNS;

/** A closing "Total" row some exports add: no dates. */
const TOTAL_ROW = /^total\b/i;

const INFO = { id: 'schwab-realized-lot-details', label: 'Charles Schwab Realized Gain/Loss - Lot Details' };

/**
 * Charles Schwab "Realized Gain/Loss - Lot Details": a title line, the 25-column header, one row per
 * lot closed by a sale. A file with no lots is accepted (a period without sales).
 */
export const schwabLotDetailsFormat: BrokerageFormat = {
  ...INFO,
  accepted: true,
  layout: { broker: 'Charles Schwab', kind: 'realized-lots', columns: columnList(COLUMNS) },

  recognises(headerCells) {
    return ColumnLayout.of(COLUMNS, headerCells) !== undefined;
  },

  *parse({ fileName, header, rows, seen, lotsSoFar }: FormatInput): Steps<ParsedRealizedLotsFile> {
    const layout = ColumnLayout.of(COLUMNS, header.cells);
    if (!layout) {
      throw new ImportFileError('IMPORT_HEADER_NOT_RECOGNISED', fileName, header.line, 'not a Schwab Lot Details header');
    }
    const lots: RealizedLot[] = [];
    const days = new DayDigests(INFO.id, header, seen?.get(INFO.id));
    for (const [index, row] of rows.entries()) {
      if (index > 0 && index % ROWS_PER_TURN === 0) {
        lotsSoFar?.(lots);
        yield;
      }
      if (layout.isHeaderAgain(row)) {
        throw ImportFileError.repeatedHeader(fileName, row.line);
      }
      const reader = new RowReader(fileName, row, layout, COLUMNS);
      if (TOTAL_ROW.test(reader.text('symbol')) && reader.text('closedDate') === '') {
        continue;
      }
      if (days.putAside(reader.date('closedDate').date, row)) continue;
      lots.push(readLot(reader));
    }
    layout.forgetReadings(); // the layout lives on with the rows put aside (`days`), its memos need not
    const fileDays = days.finish((waiting: readonly CsvRow[]) => waiting.map((row) => readLot(new RowReader(fileName, row, layout, COLUMNS))));
    return { kind: 'realized-lots', format: INFO, fileName, headerLine: header.line, dataRows: lots.length + fileDays.waitingRows, lots, days: fileDays };
  },
};

function readLot(reader: RowReader<Column>): RealizedLot {
  const symbol = reader.symbol('symbol', true);
  if (symbol === '') throw reader.missing('symbol');
  const closedDate = reader.date('closedDate').date;
  const openedDate = reader.date('openedDate').date;
  const quantity = reader.requiredNumber('quantity');
  if (!quantity.isPositive()) {
    throw reader.invalid('quantity', reader.text('quantity'), `a lot of ${reader.text('quantity')} shares`);
  }
  const proceeds = reader.requiredNumber('proceeds');
  const costBasis = reader.requiredNumber('costBasis');
  const washSale = reader.yesNo('washSale');
  const disallowedLoss = reader.number('disallowedLoss');
  return packedLot({
    line: reader.line,
    symbol,
    name: reader.sharedText('name'),
    closedDate,
    openedDate,
    quantity,
    proceedsPerShare: reader.number('proceedsPerShare'),
    costPerShare: reader.number('costPerShare'),
    proceeds,
    costBasis,
    gainLoss: reader.number('gainLoss') ?? proceeds.sub(costBasis),
    gainLossPercent: reader.percent('gainLossPercent'),
    term: reader.sharedText('term') || null,
    washSale,
    disallowedLoss: disallowedLoss === null || (disallowedLoss.isZero() && !washSale) ? null : disallowedLoss.abs(),
    cellsJson: reader.cellsJson,
    fingerprint: undefined, // set by the caller (fingerprint.ts)
  });
}
