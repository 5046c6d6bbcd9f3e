import type { IsoDate } from '@app/shared/domain';
import type { Decimal } from '@app/shared/domain';

/**
 * One row of the broker's realized gain/loss lot details: `quantity` shares opened on `openedDate`
 * and closed by the sale on `closedDate`. The broker's figures are the truth for that lot.
 */
export interface RealizedLot {
  /** Physical line in the uploaded file (title line counted). */
  readonly line: number;
  readonly symbol: string;
  readonly name: string;
  readonly closedDate: IsoDate;
  readonly openedDate: IsoDate;
  readonly quantity: Decimal;
  readonly proceedsPerShare: Decimal | null;
  readonly costPerShare: Decimal | null;
  /** Net of fees, allocated to the lot by the broker. */
  readonly proceeds: Decimal;
  /** Cost basis including fees. */
  readonly costBasis: Decimal;
  /** Proceeds − cost basis, as the broker gives it (wash sales are not adjusted). */
  readonly gainLoss: Decimal;
  readonly gainLossPercent: Decimal | null;
  /** `Short Term` / `Long Term` as written, or null. */
  readonly term: string | null;
  readonly washSale: boolean;
  /** Positive amount of the loss the wash-sale rule disallows; null when none given. */
  readonly disallowedLoss: Decimal | null;
  /**
   * The cells exactly as read, as a JSON array: stored with the row ('[]' for a row read back from the
   * database, which does not read them). One string instead of a string per cell: a large file's rows
   * are much of an import's memory. `ImportStore.addRows` lets go of them once it has made their
   * row's COPY line (they are then '[]', as read back).
   */
  cellsJson: string;
  /** Natural key, once the import has keyed the lot for its account (set in place by fingerprint.ts). */
  fingerprint?: string;
}
