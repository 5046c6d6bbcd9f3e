import { Decimal } from '@app/shared/domain';

/** How many rows' figures a chunk holds. */
const ROWS_PER_CHUNK = 1024;
/** In a chunk: no figure (null), and a figure beyond a number's exact units, kept as itself beside (`FigureChunk.large`). */
const NONE = Number.NaN;
const LARGE = Number.POSITIVE_INFINITY;

/**
 * The exact figures of up to ROWS_PER_CHUNK rows, `width` to a row, as counts of units
 * (`Decimal.exactUnits`) in one typed array: a number each where each was an object of 40 bytes.
 */
export class FigureChunk {
  readonly units: Float64Array;
  /** The figures beyond ±2^53 units (±900,719,925.47…), by their place in `units`: next to none. */
  private large: Map<number, Decimal> | undefined;

  constructor(width: number) {
    this.units = new Float64Array(ROWS_PER_CHUNK * width);
  }

  put(place: number, figure: Decimal | null): void {
    const units = figure?.exactUnits;
    if (figure === null) this.units[place] = NONE;
    else if (units !== undefined) this.units[place] = units;
    else {
      this.units[place] = LARGE;
      (this.large ??= new Map()).set(place, figure);
    }
  }

  /** The figure at `place`: a new `Decimal` of the value put there (the same value at every reading), or null. */
  get(place: number): Decimal | null {
    const units = this.units[place];
    if (units === LARGE) return this.large?.get(place) as Decimal;
    return Number.isNaN(units) ? null : Decimal.fromExactUnits(units);
  }
}

/**
 * Places for rows' figures, `width` to a row, in chunk after chunk: a full chunk lives as long as a
 * row packed into it does. Rows are packed where they are held by the hundred thousand (a large file's,
 * an account's): their figures were about half of the rows' memory (docs/operations.md "Imports").
 */
export class FigurePacking {
  private chunk: FigureChunk;
  private rows = 0;

  constructor(private readonly width: number) {
    this.chunk = new FigureChunk(width);
  }

  /** A new row's place: its chunk, and its first figure's place there (its figures follow). */
  place(): { chunk: FigureChunk; at: number } {
    if (this.rows === ROWS_PER_CHUNK) {
      this.chunk = new FigureChunk(this.width);
      this.rows = 0;
    }
    const at = this.rows * this.width;
    this.rows += 1;
    return { chunk: this.chunk, at };
  }
}

/**
 * A row whose exact figures are packed at a place `packing` gives it, in the order given; its class
 * reads each back with `figure` (realized-lot.ts, broker-transaction.ts).
 */
export abstract class PackedFigures {
  readonly #chunk: FigureChunk;
  /** The row's first figure's place in the chunk. */
  readonly #at: number;

  protected constructor(packing: FigurePacking, figures: readonly (Decimal | null)[]) {
    const { chunk, at } = packing.place();
    this.#chunk = chunk;
    this.#at = at;
    for (let index = 0; index < figures.length; index += 1) chunk.put(at + index, figures[index]);
  }

  /** The row's figure at `index` of those it was made with. */
  protected figure(index: number): Decimal | null {
    return this.#chunk.get(this.#at + index);
  }
}
