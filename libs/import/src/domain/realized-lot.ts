import type { IsoDate } from '@app/shared/domain';
import type { Decimal, ExactUnits } from '@app/shared/domain';
import { FigurePacking, PackedFigures } from './packed-figures.js';

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

/** A lot's fields' places among the figures, numbers and texts it is packed in. */
const QUANTITY = 0;
const PROCEEDS_PER_SHARE = 1;
const COST_PER_SHARE = 2;
const PROCEEDS = 3;
const COST_BASIS = 4;
const GAIN_LOSS = 5;
const GAIN_LOSS_PERCENT = 6;
const DISALLOWED_LOSS = 7;
const LINE = 0;
const WASH_SALE = 1;
const SYMBOL = 0;
const NAME = 1;
const CLOSED_DATE = 2;
const OPENED_DATE = 3;
const TERM = 4;
const packing = new FigurePacking({ figures: 8, numbers: 2, texts: 5 });

/** A lot's figures by their places (`lotFigureToWrite`). */
export const LotFigure = {
  quantity: QUANTITY,
  proceedsPerShare: PROCEEDS_PER_SHARE,
  costPerShare: COST_PER_SHARE,
  proceeds: PROCEEDS,
  costBasis: COST_BASIS,
  gainLoss: GAIN_LOSS,
  gainLossPercent: GAIN_LOSS_PERCENT,
  disallowedLoss: DISALLOWED_LOSS,
} as const;
export type LotFigure = (typeof LotFigure)[keyof typeof LotFigure];

/**
 * A lot as a large import holds it (`packedLot`): its fields packed out of the heap (packed-figures.ts),
 * each figure made a `Decimal` when it is read, and its key and cells (until written) kept there too.
 * A lot with seven figures was 440 bytes of heap (an object of 17 fields, and 40 bytes a figure) and
 * its key's string 48 more; packed, it is 40 bytes (its chunk, its row), and 67 in its chunk outside
 * the heap. A million-row account's 740,000 lots were about half of the rows its import held while its
 * trades were matched (docs/imports.md).
 */
class PackedLot extends PackedFigures implements RealizedLot {
  constructor(lot: RealizedLot) {
    super(packing);
    this.putFigure(QUANTITY, lot.quantity);
    this.putFigure(PROCEEDS_PER_SHARE, lot.proceedsPerShare);
    this.putFigure(COST_PER_SHARE, lot.costPerShare);
    this.putFigure(PROCEEDS, lot.proceeds);
    this.putFigure(COST_BASIS, lot.costBasis);
    this.putFigure(GAIN_LOSS, lot.gainLoss);
    this.putFigure(GAIN_LOSS_PERCENT, lot.gainLossPercent);
    this.putFigure(DISALLOWED_LOSS, lot.disallowedLoss);
    this.putNumber(LINE, lot.line);
    this.putNumber(WASH_SALE, lot.washSale ? 1 : 0);
    this.putText(SYMBOL, lot.symbol);
    this.putText(NAME, lot.name);
    this.putText(CLOSED_DATE, lot.closedDate);
    this.putText(OPENED_DATE, lot.openedDate);
    this.putText(TERM, lot.term);
    this.cellsJson = lot.cellsJson;
    this.fingerprint = lot.fingerprint;
  }

  get line(): number {
    return this.number(LINE) as number;
  }

  get washSale(): boolean {
    return this.number(WASH_SALE) === 1;
  }

  get symbol(): string {
    return this.text(SYMBOL) as string;
  }

  get name(): string {
    return this.text(NAME) as string;
  }

  get closedDate(): IsoDate {
    return this.text(CLOSED_DATE) as IsoDate;
  }

  get openedDate(): IsoDate {
    return this.text(OPENED_DATE) as IsoDate;
  }

  get term(): string | null {
    return this.text(TERM);
  }

  get quantity(): Decimal {
    return this.figure(QUANTITY) as Decimal;
  }

  get proceedsPerShare(): Decimal | null {
    return this.figure(PROCEEDS_PER_SHARE);
  }

  get costPerShare(): Decimal | null {
    return this.figure(COST_PER_SHARE);
  }

  get proceeds(): Decimal {
    return this.figure(PROCEEDS) as Decimal;
  }

  get costBasis(): Decimal {
    return this.figure(COST_BASIS) as Decimal;
  }

  get gainLoss(): Decimal {
    return this.figure(GAIN_LOSS) as Decimal;
  }

  get gainLossPercent(): Decimal | null {
    return this.figure(GAIN_LOSS_PERCENT);
  }

  get disallowedLoss(): Decimal | null {
    return this.figure(DISALLOWED_LOSS);
  }
}

/**
 * The same lot, its figures packed (`PackedLot`): read alike, each figure a new `Decimal` of the same
 * value at each reading. For lots held by the thousand (a file's, an account's); the object given
 * is garbage once the caller lets go of it.
 */
export function packedLot(lot: RealizedLot): RealizedLot {
  return new PackedLot(lot);
}

/** Each of a lot's figures read from the lot, by its place (`LotFigure`). */
const LOT_FIGURES: readonly ((lot: RealizedLot) => Decimal | null)[] = [
  (lot) => lot.quantity,
  (lot) => lot.proceedsPerShare,
  (lot) => lot.costPerShare,
  (lot) => lot.proceeds,
  (lot) => lot.costBasis,
  (lot) => lot.gainLoss,
  (lot) => lot.gainLossPercent,
  (lot) => lot.disallowedLoss,
];

/**
 * A lot's figure for writing it out (its COPY line, its key's content): a packed lot's as its exact
 * units in `slot`, without making its `Decimal` (`PackedFigures.figureInto`); another lot's as it is.
 */
export function lotFigureToWrite(lot: RealizedLot, figure: LotFigure, slot: ExactUnits): Decimal | ExactUnits | null {
  return lot instanceof PackedLot ? lot.figureInto(figure, slot) : LOT_FIGURES[figure](lot);
}
