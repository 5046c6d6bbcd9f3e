import { hash } from 'node:crypto';
import { Decimal, DigestContent, digestPrefix, ExactUnits } from '@app/shared/domain';
import { TransactionFigure, transactionFigureToWrite, type BrokerTransaction } from './broker-transaction.js';
import { PackedFigures } from './packed-figures.js';
import { CellMemo } from './parsers/csv-columns.js';
import { LotFigure, lotFigureToWrite, type RealizedLot } from './realized-lot.js';
import { ROWS_PER_TURN, runSteps, runStepsMaybeWithTurns, type Steps, type Turns } from './turns.js';

/**
 * Natural keys for stored rows (../shared/spec/decisions.md §3, idempotency): the account, the row's content and
 * its occurrence number among identical rows of that day in the file. Re-importing the same or an
 * overlapping file gives the same keys (nothing is stored twice), while two identical real fills on
 * one day stay two rows. Content is compared in a canonical form (trimmed text, exact numbers,
 * empty fees = 0), so a re-export that only pads or formats differently is still the same row.
 */
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

/**
 * A row's content as the UTF-8 bytes its key is the digest of: `kind␞account␞` and the content's
 * fields joined by `␟`, numbers in their exact shortest form and a missing one empty, written into one
 * buffer for all the rows of a file (`DigestContent`).
 */
function keyContent(kind: string, account: string): DigestContent {
  return new DigestContent(`${kind}\u001e${canonicalText(account).toUpperCase()}\u001e`, 0x1f);
}

/** A transaction's content, for the rows of one file (the first field is the row's day). */
function transactionContent(): (content: DigestContent, tx: BrokerTransaction) => void {
  const action = memoised((text) => canonicalText(text).toLowerCase());
  const symbol = memoised((text) => canonicalText(text).toUpperCase());
  const description = memoised(canonicalText);
  // Each figure is written into the content before the next is read (`ExactUnits`): one will do.
  const units = new ExactUnits();
  return (content, tx) => {
    content
      .text(tx.date)
      .text(tx.asOfDate ?? '')
      .text(action(tx.action))
      .text(symbol(tx.symbol))
      .text(description(tx.description))
      .decimal(transactionFigureToWrite(tx, TransactionFigure.quantity, units))
      .decimal(transactionFigureToWrite(tx, TransactionFigure.price, units))
      .decimal(transactionFigureToWrite(tx, TransactionFigure.fees, units) ?? Decimal.ZERO) // empty fees are 0
      .decimal(transactionFigureToWrite(tx, TransactionFigure.amount, units));
  };
}

/** A lot's content, for the rows of one file: what the broker says about it, not derived percentages or cut names. */
function lotContent(): (content: DigestContent, lot: RealizedLot) => void {
  const symbol = memoised((text) => canonicalText(text).toUpperCase());
  const term = memoised(canonicalText);
  const units = new ExactUnits();
  return (content, lot) => {
    content
      .text(lot.closedDate)
      .text(lot.openedDate)
      .text(symbol(lot.symbol))
      .decimal(lotFigureToWrite(lot, LotFigure.quantity, units))
      .decimal(lotFigureToWrite(lot, LotFigure.proceeds, units))
      .decimal(lotFigureToWrite(lot, LotFigure.costBasis, units))
      .decimal(lotFigureToWrite(lot, LotFigure.gainLoss, units))
      .text(term(lot.term ?? ''))
      .text(lot.washSale ? 'yes' : 'no')
      .decimal(lotFigureToWrite(lot, LotFigure.disallowedLoss, units));
  };
}

/**
 * Keys one file's rows for one account, as they come (a batch at a time, in file order): identical
 * rows are counted per day (the content's first field, the row's date) across the batches. A map of
 * every row of a million-row file took the event loop 50-130 ms at once each time it grew (V8 moves
 * its entries to a table twice the size); a day's map takes a few thousand.
 */
export class RowKeying<T extends { fingerprint?: string }> {
  /**
   * A day's first occurrences of each content, by their key's first 28 bits (`keyPrefixOf`, a small
   * integer; the rare rows that share them in a day as an array), each row's own key telling it apart.
   * Keyed by the key's string, a map of a day's rows held a string of 48 bytes for every row of the file
   * (its row keeps its key in 16 bytes, packed-figures.ts): 80 MB at the end of reading a million rows.
   */
  private readonly firstsByDay = new Map<string, Map<number, T | T[]>>();
  /** The contents seen more than once, by their digest: how many times. */
  private readonly repeats = new Map<string, number>();
  private readonly content: DigestContent;

  constructor(
    kind: string,
    account: string,
    private readonly dayOf: (row: T) => string,
    private readonly write: (content: DigestContent, row: T) => void,
  ) {
    this.content = keyContent(kind, account);
  }

  /**
   * Sets the key of each of `rows[from..to)` in place (rows fresh from a file, keyed for one account:
   * not copied, as 100,000s of rows are much of an import's memory). Steps (turns.ts).
   */
  *key(rows: readonly T[], from = 0, to = rows.length): Steps<void> {
    const { content, firstsByDay, repeats } = this;
    // Indexed, not `rows.entries()`: a generator's loop cannot drop the [index, row] pair each step makes.
    for (let index = from; index < to; index += 1) {
      if (index > from && (index - from) % ROWS_PER_TURN === 0) yield;
      const row = rows[index];
      // Unit and record separators cannot occur in CSV text cells, so the content is unambiguous.
      this.write(content.begin(), row);
      // The digest's 32 bytes as one character each: a packed row keeps the key's 16 as they are
      // (`keyIn`). In hexadecimal, cut to 32 digits and copied into a string of its own, then read
      // back into bytes by the row, each key was three strings made to be dropped (0.3-0.5 µs a row).
      const digest = content.digest('binary');
      // The first occurrence is keyed by its content alone; a second identical fill of the day gets #2 …
      const day = this.dayOf(row);
      let firsts = firstsByDay.get(day);
      if (firsts === undefined) firstsByDay.set(day, (firsts = new Map()));
      const prefix = keyPrefixOf(digest);
      const sharing = firsts.get(prefix);
      const occurrence = (repeats.get(digest) ?? (sharing !== undefined && isKeyedAmong(sharing, hexDigits(digest, KEY_BYTES)) ? 1 : 0)) + 1;
      if (occurrence > 1) repeats.set(digest, occurrence);
      else firsts.set(prefix, sharing === undefined ? row : Array.isArray(sharing) ? [...sharing, row] : [sharing, row]);
      if (occurrence > 1) row.fingerprint = digestPrefix(hash('sha256', `${hexDigits(digest, DIGEST_BYTES)}#${occurrence}`, 'hex'), 2 * KEY_BYTES);
      else if (row instanceof PackedFigures) row.keyIn(digest);
      else row.fingerprint = hexDigits(digest, KEY_BYTES);
    }
  }
}

/**
 * Bytes of a SHA-256 digest, and of a key: its first 128 bits, as 32 hexadecimal digits, stored in a
 * 16-byte `uuid` column (cheaper to index than 64 characters of text; PostgreSQL takes the digits as
 * they are and the store reads them back without dashes). 128 bits leave collisions out of reach for
 * any number of rows. A key is a string of its own, not a slice of a longer one, which would keep it
 * alive with the row (11 MB of a 100,000-row import).
 */
const DIGEST_BYTES = 32;
const KEY_BYTES = 16;

/**
 * The first 28 bits of a digest (`DigestContent.digest` as one character a byte), a small integer: what `RowKeying` files its
 * day's first occurrences by (the first 7 hexadecimal digits of their keys).
 */
function keyPrefixOf(digest: string): number {
  return (digest.charCodeAt(0) << 20) | (digest.charCodeAt(1) << 12) | (digest.charCodeAt(2) << 4) | (digest.charCodeAt(3) >> 4);
}

/** The first `bytes` of a digest (one character a byte) in lower-case hexadecimal. */
function hexDigits(digest: string, bytes: number): string {
  return Buffer.from(digest, 'latin1').toString('hex', 0, bytes);
}

/** Whether one of `rows` (none, one, or several) has the key `key`. */
function isKeyedAmong<T extends { fingerprint?: string }>(rows: T | T[] | undefined, key: string): boolean {
  if (rows === undefined) return false;
  return Array.isArray(rows) ? rows.some((row) => row.fingerprint === key) : rows.fingerprint === key;
}

/** Rows keyed between two calls of `keyedSoFar` (`keyingSteps`). */
const ROWS_PER_KEYED_BATCH = 1_000;

/**
 * Keys all the rows (`RowKeying.key`) and answers them (a new array, the rows themselves); with
 * `keyedSoFar`, each thousand rows are told to it once keyed (a first import writes them while the
 * rest are keyed).
 */
export function* keyingSteps<T extends { fingerprint?: string }>(keying: RowKeying<T>, rows: readonly T[], keyedSoFar?: (batch: readonly T[]) => void): Steps<T[]> {
  for (let from = 0; from < rows.length; from += ROWS_PER_KEYED_BATCH) {
    if (from > 0) yield;
    const to = Math.min(rows.length, from + ROWS_PER_KEYED_BATCH);
    yield* keying.key(rows, from, to);
    keyedSoFar?.(rows.slice(from, to));
  }
  return rows.slice();
}

/** The natural key `withTransactionFingerprints` / `withLotFingerprints` gave a row; a row without one is a programming error. */
export function naturalKeyOf(row: { readonly fingerprint?: string }): string {
  // Read once: a packed row makes the key's string anew at each reading.
  const key = row.fingerprint;
  if (key === undefined) throw new Error('row without a natural key');
  return key;
}

/** Whether the row has its natural key, without making its string (a packed row keeps it as bytes). */
export function hasNaturalKey(row: { readonly fingerprint?: string }): boolean {
  return row instanceof PackedFigures ? row.hasKey : row.fingerprint !== undefined;
}

/** Keys for one file's transactions, in file order, by their day. */
export function transactionKeying(account: string): RowKeying<BrokerTransaction> {
  return new RowKeying('transaction', account, (tx) => tx.date, transactionContent());
}

/** Keys for one file's lots, in file order, by their closing day. */
export function lotKeying(account: string): RowKeying<RealizedLot> {
  return new RowKeying('realized-lot', account, (lot) => lot.closedDate, lotContent());
}

/**
 * A layout's `…SoFar` (told the same growing array of rows at each step of its reading): keys the rows
 * read since the last call and tells them to `keyedSoFar`.
 */
export function keyedAsRead<T extends { fingerprint?: string }>(keying: RowKeying<T>, keyedSoFar: (batch: readonly T[]) => void): (rows: readonly T[]) => void {
  let told = 0;
  return (rows) => {
    runSteps(keying.key(rows, told));
    keyedSoFar(rows.slice(told));
    told = rows.length;
  };
}

/**
 * The keys rows would get (the rows are left with the keys they had: keyed in place, for a copy of a
 * packed lot, realized-lot.ts, would not have its figures).
 */
function keysOf<T extends { fingerprint?: string }>(keying: RowKeying<T>, rows: readonly T[]): string[] {
  const had = rows.map((row) => row.fingerprint);
  runSteps(keying.key(rows));
  const keys = rows.map(naturalKeyOf);
  rows.forEach((row, index) => (row.fingerprint = had[index]));
  return keys;
}

/** One key per transaction, same order. `transactions` must be one file's rows in file order. */
export function fingerprintTransactions(account: string, transactions: readonly BrokerTransaction[]): string[] {
  return keysOf(transactionKeying(account), transactions);
}

/** One key per lot row, same order. `lots` must be one file's rows in file order. */
export function fingerprintLots(account: string, lots: readonly RealizedLot[]): string[] {
  return keysOf(lotKeying(account), lots);
}

/** The rows with their `fingerprint` set (in place); given turns, a promise, with a turn every few thousand rows. */
export function withTransactionFingerprints(account: string, transactions: readonly BrokerTransaction[]): BrokerTransaction[];
export function withTransactionFingerprints(account: string, transactions: readonly BrokerTransaction[], turns: Turns): Promise<BrokerTransaction[]>;
export function withTransactionFingerprints(
  account: string,
  transactions: readonly BrokerTransaction[],
  turns?: Turns,
): BrokerTransaction[] | Promise<BrokerTransaction[]> {
  return runStepsMaybeWithTurns(keyingSteps(transactionKeying(account), transactions), turns);
}

export function withLotFingerprints(account: string, lots: readonly RealizedLot[]): RealizedLot[];
export function withLotFingerprints(account: string, lots: readonly RealizedLot[], turns: Turns): Promise<RealizedLot[]>;
export function withLotFingerprints(account: string, lots: readonly RealizedLot[], turns?: Turns): RealizedLot[] | Promise<RealizedLot[]> {
  return runStepsMaybeWithTurns(keyingSteps(lotKeying(account), lots), turns);
}
