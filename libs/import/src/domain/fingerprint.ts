import { hash } from 'node:crypto';
import type { Decimal } from '@app/shared/domain';
import type { BrokerTransaction } from './broker-transaction.js';
import type { RealizedLot } from './realized-lot.js';

/**
 * Natural keys for stored rows (decisions.md §3, idempotency): the account, the row's content and
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

function transactionContent(tx: BrokerTransaction): string[] {
  return [
    tx.date,
    tx.asOfDate ?? '',
    canonicalText(tx.action).toLowerCase(),
    canonicalText(tx.symbol).toUpperCase(),
    canonicalText(tx.description),
    canonicalNumber(tx.quantity),
    canonicalNumber(tx.price),
    tx.fees === null || tx.fees.isZero() ? '0' : tx.fees.toString(),
    canonicalNumber(tx.amount),
  ];
}

/** A lot is identified by what the broker says about it, not by derived percentages or cut names. */
function lotContent(lot: RealizedLot): string[] {
  return [
    lot.closedDate,
    lot.openedDate,
    canonicalText(lot.symbol).toUpperCase(),
    lot.quantity.toString(),
    lot.proceeds.toString(),
    lot.costBasis.toString(),
    lot.gainLoss.toString(),
    canonicalText(lot.term ?? ''),
    lot.washSale ? 'yes' : 'no',
    canonicalNumber(lot.disallowedLoss),
  ];
}

function fingerprintAll<T>(kind: string, account: string, rows: readonly T[], contentOf: (row: T) => string[]): string[] {
  const occurrences = new Map<string, number>();
  const accountKey = canonicalText(account).toUpperCase();
  return rows.map((row) => {
    // Unit and record separators cannot occur in CSV text cells, so the join is unambiguous.
    const contentKey = hash('sha256', `${kind}\u001e${accountKey}\u001e${contentOf(row).join('\u001f')}`, 'hex');
    const occurrence = (occurrences.get(contentKey) ?? 0) + 1;
    occurrences.set(contentKey, occurrence);
    // The first occurrence is keyed by its content alone; a second identical fill of the day gets #2 …
    return key128(occurrence === 1 ? contentKey : hash('sha256', `${contentKey}#${occurrence}`, 'hex'));
  });
}

/**
 * The first 128 bits of a SHA-256 digest, as 32 hexadecimal digits: stored in a 16-byte `uuid` column
 * (cheaper to index than 64 characters of text; PostgreSQL takes the digits as they are and the store
 * reads them back without dashes). 128 bits leave collisions out of reach for any number of rows.
 */
function key128(hexDigest: string): string {
  return hexDigest.slice(0, 32);
}

/** One key per transaction, same order. `transactions` must be one file's rows in file order. */
export function fingerprintTransactions(account: string, transactions: readonly BrokerTransaction[]): string[] {
  return fingerprintAll('transaction', account, transactions, transactionContent);
}

/** One key per lot row, same order. `lots` must be one file's rows in file order. */
export function fingerprintLots(account: string, lots: readonly RealizedLot[]): string[] {
  return fingerprintAll('realized-lot', account, lots, lotContent);
}

/** The same rows with their `fingerprint` set. */
export function withTransactionFingerprints(account: string, transactions: readonly BrokerTransaction[]): BrokerTransaction[] {
  const keys = fingerprintTransactions(account, transactions);
  return transactions.map((tx, index) => ({ ...tx, fingerprint: keys[index] }));
}

export function withLotFingerprints(account: string, lots: readonly RealizedLot[]): RealizedLot[] {
  const keys = fingerprintLots(account, lots);
  return lots.map((lot, index) => ({ ...lot, fingerprint: keys[index] }));
}
