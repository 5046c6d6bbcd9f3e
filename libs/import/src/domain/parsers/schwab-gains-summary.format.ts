import { ImportFileError } from '../import.errors.js';
import type { BrokerageFormat } from './brokerage-format.js';
import { headerNames } from './csv-columns.js';

/**
 * The older Schwab "Realized Gain/Loss" export with one row per sale (no "Opened Date"): it cannot
 * say which purchase lots a sale closed, so it is recognised only to ask for the Lot Details export.
 */
export const schwabGainsSummaryFormat: BrokerageFormat = {
  id: 'schwab-realized-summary',
  label: 'Charles Schwab Realized Gain/Loss (one row per sale)',
  accepted: false,
  layout: { broker: 'Charles Schwab', kind: 'realized-lots', columns: [{ name: 'Symbol', required: true }, { name: 'Closed Date', required: true }] },

  recognises(headerCells) {
    const names = headerNames(headerCells);
    return (
      names.includes('symbol') &&
      names.includes('closed date') &&
      !names.includes('opened date') &&
      names.some((name) => name.includes('gain/loss') || name.startsWith('cost basis'))
    );
  },

  parse({ fileName, header }) {
    throw new ImportFileError(
      'IMPORT_UNSUPPORTED_LAYOUT',
      fileName,
      header.line,
      'this is the Realized Gain/Loss summary with one row per sale (no Opened Date column); ' +
        'please export "Realized Gain/Loss - Lot Details" from Schwab instead',
    );
  },
};
