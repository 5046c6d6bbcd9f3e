import { normaliseAction, type BrokerTransaction } from './broker-transaction.js';

/**
 * Actions a Schwab Transactions export writes that move cash or shares without being a trade or a
 * dividend: kept with the upload, counted nowhere, and known, so they raise no warning.
 */
const KNOWN_OTHER_ACTIONS = new Set([
  'adr mgmt fee',
  'bank interest',
  'bond interest',
  'cash in lieu',
  'credit interest',
  'foreign tax paid',
  'funds received',
  'internal transfer',
  'journal',
  'journaled shares',
  'margin interest',
  'misc cash entry',
  'moneylink deposit',
  'moneylink transfer',
  'security transfer',
  'service fee',
  'stock dividend',
  'wire funds',
  'wire funds received',
  'wire received',
  'wire sent',
]);

const LINES_SHOWN = 5;

/**
 * One warning per Action the import does not know (an option trade, a new broker wording…): its rows
 * are kept but count toward no trade or dividend, so the trader is told rather than left to wonder.
 */
export function unknownActionWarnings(fileName: string, transactions: readonly BrokerTransaction[]): string[] {
  const lines = new Map<string, number[]>();
  for (const transaction of transactions) {
    if (transaction.kind !== 'other') continue;
    const action = normaliseAction(transaction.action);
    if (KNOWN_OTHER_ACTIONS.has(action)) continue;
    const shown = transaction.action.trim().replace(/\s+/g, ' ');
    lines.set(shown, [...(lines.get(shown) ?? []), transaction.line]);
  }
  return [...lines].map(([action, at]) => {
    const where = at.slice(0, LINES_SHOWN).join(', ') + (at.length > LINES_SHOWN ? ` and ${at.length - LINES_SHOWN} more` : '');
    const rows = at.length === 1 ? '1 row' : `${at.length} rows`;
    return `${fileName}: ${rows} with the Action '${action}' (line${at.length === 1 ? '' : 's'} ${where}) not counted: the import does not know this action`;
  });
}
