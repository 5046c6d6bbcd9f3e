import { hash } from 'node:crypto';
import { digestPrefix, type Decimal } from '@app/shared/domain';
import type { BrokerTransaction } from './broker-transaction.js';
import { CellMemo } from './parsers/csv-columns.js';
import type { RealizedLot } from './realized-lot.js';
import { ROWS_PER_TURN, runSteps, runStepsMaybeWithTurns, type Steps, type Turns } from './turns.js';

/**
 * Natural keys for stored rows (../shared/spec/decisions.md §3, idempotency): the account, the row's content and
 * its occurrence number among identical rows of that day in the file. Re-importing the same or an
 * overlapping file gives the same keys (nothing is stored twice), while two identical real fills on
 * one day stay two rows. Content is compared in a canonical form (trimmed text, exact numbers,
 * empty fees = 0), so a re-export that only pads or formats differently is still the same row.
 */
function canonicalNumber(value: Decimal | null): string {
  return value === null ? '' : value.toString();
}

function canonicalText(value: string): string {
  return value.trim().replace(/\s+/g, ' ');
}

/**
 * `transform` with each distinct text worked out once: the rows of one file share one string per
 * distinct cell text (the reader's memo), so most rows' symbol, action and description are looked up
 * (about a tenth of keying a file). The readers' own memo (`CellMemo`: at most 50,000 texts, let go of
 * when it seldom helps).
 */
function memoised(transform: (text: string) => string): (text: string) => string {
  const memo = new CellMemo<string>();
  return (text) => memo.get(text) ?? memo.remember(text, transform(text));
}

/** A transaction's content, for the rows of one file. */
function transactionContent(): (tx: BrokerTransaction) => string[] {
  const action = memoised((text) => canonicalText(text).toLowerCase());
  const symbol = memoised((text) => canonicalText(text).toUpperCase());
  const description = memoised(canonicalText);
  return (tx) => [
    tx.date,
    tx.asOfDate ?? '',
    action(tx.action),
    symbol(tx.symbol),
    description(tx.description),
    canonicalNumber(tx.quantity),
    canonicalNumber(tx.price),
    tx.fees === null || tx.fees.isZero() ? '0' : tx.fees.toString(),
    canonicalNumber(tx.amount),
  ];
}

/** A lot's content, for the rows of one file: what the broker says about it, not derived percentages or cut names. */
function lotContent(): (lot: RealizedLot) => string[] {
  const symbol = memoised((text) => canonicalText(text).toUpperCase());
  const term = memoised(canonicalText);
  return (lot) => [
    lot.closedDate,
    lot.openedDate,
    symbol(lot.symbol),
    lot.quantity.toString(),
    lot.proceeds.toString(),
    lot.costBasis.toString(),
    lot.gainLoss.toString(),
    term(lot.term ?? ''),
    lot.washSale ? 'yes' : 'no',
    canonicalNumber(lot.disallowedLoss),
  ];
}

/**
 * The rows' keys. Identical rows are counted per day (the content's first field, the row's date): a
 * map of every row of a million-row file took the event loop 50-130 ms at once each time it grew
 * (V8 moves its entries to a table twice the size), a day's map takes a few thousand.
 */
function* fingerprintAll<T>(kind: string, account: string, rows: readonly T[], contentOf: (row: T) => string[]): Steps<string[]> {
  const occurrencesByDay = new Map<string, Map<string, number>>();
  const accountKey = canonicalText(account).toUpperCase();
  const keys: string[] = [];
  // Indexed, not `rows.entries()`: a generator's loop cannot drop the [index, row] pair each step makes.
  for (let index = 0; index < rows.length; index += 1) {
    if (index > 0 && index % ROWS_PER_TURN === 0) yield;
    const content = contentOf(rows[index]);
    // Unit and record separators cannot occur in CSV text cells, so the join is unambiguous.
    const contentKey = hash('sha256', `${kind}\u001e${accountKey}\u001e${content.join('\u001f')}`, 'hex');
    let occurrences = occurrencesByDay.get(content[0]);
    if (occurrences === undefined) occurrencesByDay.set(content[0], (occurrences = new Map()));
    const occurrence = (occurrences.get(contentKey) ?? 0) + 1;
    occurrences.set(contentKey, occurrence);
    // The first occurrence is keyed by its content alone; a second identical fill of the day gets #2 …
    keys.push(key128(occurrence === 1 ? contentKey : hash('sha256', `${contentKey}#${occurrence}`, 'hex')));
  }
  return keys;
}

/** Sets each row's key (rows fresh from a file, keyed for one account: not copied, as 100,000s of rows are much of an import's memory). */
function* withKeys<T extends { fingerprint?: string }>(rows: readonly T[], keying: Steps<string[]>): Steps<T[]> {
  const keys = yield* keying;
  for (let index = 0; index < rows.length; index += 1) {
    if (index > 0 && index % ROWS_PER_TURN === 0) yield;
    rows[index].fingerprint = keys[index];
  }
  return rows.slice();
}

/**
 * The first 128 bits of a SHA-256 digest, as 32 hexadecimal digits: stored in a 16-byte `uuid` column
 * (cheaper to index than 64 characters of text; PostgreSQL takes the digits as they are and the store
 * reads them back without dashes). 128 bits leave collisions out of reach for any number of rows.
 * Not a slice of the digest, which would keep it alive with the row (11 MB of a 100,000-row import).
 */
function key128(hexDigest: string): string {
  return digestPrefix(hexDigest, 32);
}

/** The natural key `withTransactionFingerprints` / `withLotFingerprints` gave a row; a row without one is a programming error. */
export function naturalKeyOf(row: { readonly fingerprint?: string }): string {
  if (row.fingerprint === undefined) throw new Error('row without a natural key');
  return row.fingerprint;
}

/** One key per transaction, same order. `transactions` must be one file's rows in file order. */
export function fingerprintTransactions(account: string, transactions: readonly BrokerTransaction[]): string[] {
  return runSteps(fingerprintAll('transaction', account, transactions, transactionContent()));
}

/** One key per lot row, same order. `lots` must be one file's rows in file order. */
export function fingerprintLots(account: string, lots: readonly RealizedLot[]): string[] {
  return runSteps(fingerprintAll('realized-lot', account, lots, lotContent()));
}

/** The rows with their `fingerprint` set (in place); given turns, a promise, with a turn every few thousand rows. */
export function withTransactionFingerprints(account: string, transactions: readonly BrokerTransaction[]): BrokerTransaction[];
export function withTransactionFingerprints(account: string, transactions: readonly BrokerTransaction[], turns: Turns): Promise<BrokerTransaction[]>;
export function withTransactionFingerprints(
  account: string,
  transactions: readonly BrokerTransaction[],
  turns?: Turns,
): BrokerTransaction[] | Promise<BrokerTransaction[]> {
  return runStepsMaybeWithTurns(withKeys(transactions, fingerprintAll('transaction', account, transactions, transactionContent())), turns);
}

export function withLotFingerprints(account: string, lots: readonly RealizedLot[]): RealizedLot[];
export function withLotFingerprints(account: string, lots: readonly RealizedLot[], turns: Turns): Promise<RealizedLot[]>;
export function withLotFingerprints(account: string, lots: readonly RealizedLot[], turns?: Turns): RealizedLot[] | Promise<RealizedLot[]> {
  return runStepsMaybeWithTurns(withKeys(lots, fingerprintAll('realized-lot', account, lots, lotContent())), turns);
}
