import { Decimal } from '@app/shared/domain';

/** How many rows' figures a chunk holds. */
const ROWS_PER_CHUNK = 1024;
/** In a chunk: no figure (null), and a figure beyond a number's exact units, kept as itself beside (`FigureChunk.large`). */
const NONE = Number.NaN;
const LARGE = Number.POSITIVE_INFINITY;
/** A row's natural key (fingerprint.ts `key128`): 128 bits, given and read as 32 lower-case hexadecimal digits. */
const KEY_BYTES = 16;
const KEY_DIGITS = 2 * KEY_BYTES;
/** What a row's place in `FigureChunk.keyKinds` says of its key. */
const NO_KEY = 0;
const KEY_IN_BYTES = 1;
const KEY_AS_TEXT = 2;

/**
 * The exact figures of up to ROWS_PER_CHUNK rows, `width` to a row, as counts of units
 * (`Decimal.exactUnits`) in one typed array: a number each where each was an object of 40 bytes;
 * and the rows' natural keys (`putKey`, `key`).
 */
export class FigureChunk {
  readonly units: Float64Array;
  /** The figures beyond ±2^53 units (±900,719,925.47…), by their place in `units`: next to none. */
  private large: Map<number, Decimal> | undefined;
  /**
   * The rows' natural keys, 16 bytes each, made when the first is put: a key's 32 digits as a string
   * were 48 bytes of heap for every row, as the rows of a million-row import were matched.
   */
  private keys: Buffer | undefined;
  /** Per row: no key, its key in `keys`, or a key that is not 32 lower-case hexadecimal digits, kept as itself in `keyTexts`. */
  private readonly keyKinds = new Uint8Array(ROWS_PER_CHUNK);
  private keyTexts: Map<number, string> | undefined;

  constructor(private readonly width: number) {
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

  /** Sets the key of the row whose figures start at `at` (undefined: none). */
  putKey(at: number, key: string | undefined): void {
    const row = at / this.width;
    this.keyTexts?.delete(row);
    if (key === undefined) this.keyKinds[row] = NO_KEY;
    else if (writeKeyBytes((this.keys ??= Buffer.allocUnsafeSlow(ROWS_PER_CHUNK * KEY_BYTES)), row * KEY_BYTES, key)) this.keyKinds[row] = KEY_IN_BYTES;
    else {
      this.keyKinds[row] = KEY_AS_TEXT;
      (this.keyTexts ??= new Map()).set(row, key);
    }
  }

  /** The key of the row whose figures start at `at`: a new string of the key put (the same text at every reading), or undefined. */
  key(at: number): string | undefined {
    const row = at / this.width;
    switch (this.keyKinds[row]) {
      case KEY_IN_BYTES:
        return (this.keys as Buffer).toString('hex', row * KEY_BYTES, (row + 1) * KEY_BYTES);
      case KEY_AS_TEXT:
        return this.keyTexts?.get(row);
      default:
        return undefined;
    }
  }
}

/** Writes `key`'s 16 bytes at `at` when it is 32 lower-case hexadecimal digits (what `toString('hex')` gives back); false otherwise. */
function writeKeyBytes(bytes: Buffer, at: number, key: string): boolean {
  if (key.length !== KEY_DIGITS) return false;
  for (let index = 0; index < KEY_BYTES; index += 1) {
    const high = hexDigit(key.charCodeAt(2 * index));
    const low = hexDigit(key.charCodeAt(2 * index + 1));
    if (high < 0 || low < 0) return false;
    bytes[at + index] = (high << 4) | low;
  }
  return true;
}

/** The value of a lower-case hexadecimal digit's character code, or -1. */
function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x66) return code - 0x57;
  return -1;
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
 * reads each back with `figure` (realized-lot.ts, broker-transaction.ts). Its natural key is kept in
 * the chunk too (`fingerprint`).
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

  /** The row's natural key (fingerprint.ts), kept in its chunk; undefined until it is keyed. */
  get fingerprint(): string | undefined {
    return this.#chunk.key(this.#at);
  }

  set fingerprint(key: string | undefined) {
    this.#chunk.putKey(this.#at, key);
  }
}
