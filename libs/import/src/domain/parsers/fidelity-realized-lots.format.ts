import { Decimal } from '@app/shared/domain';
import { ImportFileError } from '../import.errors.js';
import { packedLot, type RealizedLot } from '../realized-lot.js';
import type { Steps } from '../turns.js';
import { readExportRows } from './activity-export.js';
import type { BrokerageFormat, FormatInput, ParsedRealizedLotsFile } from './brokerage-format.js';
import { column, ColumnLayout, columnList, FIGURE_LIMITS, type RowReader } from './csv-columns.js';

const COLUMNS = {
  symbol: column('Symbol(CUSIP)', true, ['Symbol', 'Symbol (CUSIP)']),
  description: column('Security Description', false, ['Description']),
  quantity: column('Quantity', true, [], FIGURE_LIMITS.quantity),
  acquired: column('Date Acquired'),
  sold: column('Date Sold'),
  proceeds: column('Proceeds'),
  costBasis: column('Cost Basis'),
  shortTerm: column('Short Term Gain/Loss', true, ['Short-Term Gain/Loss']),
  longTerm: column('Long Term Gain/Loss', true, ['Long-Term Gain/Loss']),
  washSale: column('Wash Sale Loss Disallowed', false),
};

/** The CUSIP Fidelity writes after the ticker: `AAPL(037833100)`. */
const CUSIP = /\([0-9A-Z]{9}\)$/;

const INFO = { id: 'fidelity-realized-lots', label: 'Fidelity Realized Gain/Loss' };

/**
 * Fidelity "Closed Positions → Realized Gain/Loss" download (`Realized_Gain_Loss_Account_X….csv`): one
 * row per lot a sale closed, the ticker followed by its CUSIP, amounts as `"$1,189.97 "`, the gain in a
 * short-term or a long-term column. Beside Fidelity's accounts history it decides which lots each sale
 * closed, as Schwab's lot details do. A file with no lots is accepted (a period without sales).
 */
export const fidelityRealizedLotsFormat: BrokerageFormat = {
  ...INFO,
  accepted: true,
  layout: { broker: 'Fidelity', kind: 'realized-lots', columns: columnList(COLUMNS) },
  recognises: (cells) => ColumnLayout.of(COLUMNS, cells) !== undefined,
  *parse({ fileName, header, rows, lotsSoFar }: FormatInput): Steps<ParsedRealizedLotsFile> {
    const layout = ColumnLayout.of(COLUMNS, header.cells);
    if (!layout) throw new ImportFileError('IMPORT_HEADER_NOT_RECOGNISED', fileName, header.line, `not a ${INFO.label} header`);
    const lots = yield* readExportRows(fileName, rows, layout, COLUMNS, readLot, lotsSoFar);
    return { kind: 'realized-lots', format: INFO, fileName, headerLine: header.line, dataRows: lots.length, lots };
  },
};

function readLot(reader: RowReader<keyof typeof COLUMNS>): RealizedLot {
  reader.requiredText('symbol', 'every lot names its security');
  const symbol = reader.symbol('symbol', true, CUSIP);
  const quantity = reader.requiredNumber('quantity');
  if (!quantity.isPositive()) throw reader.invalid('quantity', reader.text('quantity'), `a lot of ${reader.text('quantity')} shares`);
  const proceeds = reader.requiredNumber('proceeds');
  const costBasis = reader.requiredNumber('costBasis');
  const shortTerm = reader.number('shortTerm') ?? Decimal.ZERO;
  const longTerm = reader.number('longTerm') ?? Decimal.ZERO;
  const disallowed = reader.number('washSale');
  return packedLot({
    line: reader.line,
    symbol,
    name: reader.sharedText('description'),
    closedDate: reader.date('sold').date,
    openedDate: reader.date('acquired').date,
    quantity,
    proceedsPerShare: null,
    costPerShare: null,
    proceeds,
    costBasis,
    gainLoss: shortTerm.add(longTerm),
    gainLossPercent: null,
    term: longTerm.isZero() ? 'Short Term' : shortTerm.isZero() ? 'Long Term' : null,
    washSale: disallowed !== null && !disallowed.isZero(),
    disallowedLoss: disallowed === null || disallowed.isZero() ? null : disallowed.abs(),
    cellsJson: reader.cellsJson,
    fingerprint: undefined,
  });
}
