import { normaliseAction, type BrokerTransaction } from './broker-transaction.js';
import { ROWS_PER_TURN, runSteps, type Steps } from './turns.js';

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
  return runSteps(unknownActionWarningSteps(fileName, transactions));
}

/** `unknownActionWarnings` as steps (turns.ts), stopping every ROWS_PER_TURN rows. */
export function* unknownActionWarningSteps(fileName: string, transactions: readonly BrokerTransaction[]): Steps<string[]> {
  // Per Action: its first lines (the ones shown) and how many rows have it. A copy of every line so far
  // per row made an options trader's file quadratic: 40,000 'Buy to Open' rows took 15 s.
  const actions = new Map<string, { lines: number[]; rows: number }>();
  for (let index = 0; index < transactions.length; index += 1) {
    if (index > 0 && index % ROWS_PER_TURN === 0) yield;
    const transaction = transactions[index];
    if (transaction.kind !== 'other') continue;
    const action = normaliseAction(transaction.action);
    if (KNOWN_OTHER_ACTIONS.has(action)) continue;
    const shown = transaction.action.trim().replace(/\s+/g, ' ');
    let found = actions.get(shown);
    if (found === undefined) actions.set(shown, (found = { lines: [], rows: 0 }));
    if (found.rows < LINES_SHOWN) found.lines.push(transaction.line);
    found.rows += 1;
  }
  return [...actions].map(([action, { lines, rows }]) => {
    const where = lines.join(', ') + (rows > LINES_SHOWN ? ` and ${rows - LINES_SHOWN} more` : '');
    return `${fileName}: ${rows === 1 ? '1 row' : `${rows} rows`} with the Action '${action}' (line${rows === 1 ? '' : 's'} ${where}) not counted: the import does not know this action`;
  });
}
