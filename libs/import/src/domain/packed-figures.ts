import { Decimal, type ExactUnits } from '@app/shared/domain';

/** How many rows a chunk holds. */
const ROWS_PER_CHUNK = 1024;
/**
 * A chunk's figures are ten-thousandths where they are whole ten-thousandths of no more than 32 bits
 * (±214,748.3647: a broker's prices, amounts and quantities, nearly all): `Decimal` units (10^-10)
 * are this many to one.
 */
const UNITS_PER_NARROW = 1_000_000;
/** In a chunk's narrow figures: no figure (null), and a figure kept wide (`FigureChunk.wide`). */
const NO_FIGURE = -0x80000000;
const WIDE = -0x7fffffff;
/** In a chunk's wide figures: a figure beyond a number's exact units, kept as itself beside (`FigureChunk.large`). */
const LARGE = Number.POSITIVE_INFINITY;
/** A row's natural key (fingerprint.ts `key128`): 128 bits, given and read as 32 lower-case hexadecimal digits. */
const KEY_BYTES = 16;
const KEY_DIGITS = 2 * KEY_BYTES;
/** In a chunk: no number (undefined), and no text (null). */
const NO_NUMBER = -0x80000000;
const NO_TEXT = 0xffff;
/** A row's cells once written (`PackedFigures.cellsJson`): none kept, as a row read back from the database. */
const NO_CELLS = '[]';
/** What a row's place in `FigureChunk.keyKinds` says of its key. */
const NO_KEY = 0;
const KEY_IN_BYTES = 1;
const KEY_AS_TEXT = 2;

/** How many of each kind of field a packed row has (`FigureChunk`). */
export interface RowShape {
  /** Exact figures (a `Decimal` or null each). */
  readonly figures: number;
  /** Whole numbers of 32 bits (a line, an order …; undefined allowed). */
  readonly numbers?: number;
  /** Texts (a date, a symbol …; null allowed), kept once per chunk however many of its rows hold them. */
  readonly texts?: number;
}

/**
 * The fields of up to ROWS_PER_CHUNK rows, out of the heap: their exact figures as counts of
 * ten-thousandths in one typed array, 4 bytes each where each was an object of 40 bytes (with another
 * of counts of units, `Decimal.exactUnits`, made for a chunk with a figure that is not); their
 * whole numbers in another, 4 bytes each; their texts as places (2 bytes each) in a `TextTable` the
 * chunks of a packing share (a row's date, symbol, action … are repeated by its neighbours and by the
 * rows of other chunks); and their natural keys (`putKey`, `key`).
 */
export class FigureChunk {
  /** Per row and figure, its ten-thousandths, or NO_FIGURE, or WIDE. */
  private readonly narrow: Int32Array;
  /**
   * The units of the figures that are not whole ten-thousandths of 32 bits, by their place in `narrow`,
   * or LARGE: made with the first (8 bytes a figure more for the chunk; few have one).
   */
  private wide: Float64Array | undefined;
  /** The figures beyond ±2^53 units (±900,719.925…), by their place in `narrow`: next to none. */
  private large: Map<number, Decimal> | undefined;
  /** Per row and number field, the number, or NO_NUMBER. */
  private readonly numbers: Int32Array;
  /** Per row and text field, the text's place in `texts`, or NO_TEXT. */
  private readonly textPlaces: Uint16Array;
  /**
   * The rows' natural keys, 16 bytes each, made when the first is put: a key's 32 digits as a string
   * were 48 bytes of heap for every row, as the rows of a million-row import were matched.
   */
  private keys: Buffer | undefined;
  /** Per row: no key, its key in `keys`, or a key that is not 32 lower-case hexadecimal digits, kept as itself in `keyTexts`. */
  private readonly keyKinds = new Uint8Array(ROWS_PER_CHUNK);
  private keyTexts: Map<number, string> | undefined;
  /**
   * The rows' cells as JSON until the import has written them (then NO_CELLS, not kept): the array
   * goes with the last of them. A field of each row object before, 8 bytes of 1.7 million at a million rows.
   */
  private cellTexts: (string | undefined)[] | undefined;
  private cellsHeld = 0;
  private readonly width: number;
  private readonly numberWidth: number;
  private readonly textWidth: number;

  /** `texts`: where the chunk keeps its rows' texts (a table with room for as many as it has text fields, `TextTable.hasRoomFor`). */
  constructor(
    shape: RowShape,
    private readonly texts: TextTable = new TextTable(),
  ) {
    this.width = shape.figures;
    this.numberWidth = shape.numbers ?? 0;
    this.textWidth = shape.texts ?? 0;
    this.narrow = new Int32Array(ROWS_PER_CHUNK * this.width);
    this.numbers = new Int32Array(ROWS_PER_CHUNK * this.numberWidth);
    this.textPlaces = new Uint16Array(ROWS_PER_CHUNK * this.textWidth);
  }

  putFigure(row: number, index: number, figure: Decimal | null): void {
    const place = row * this.width + index;
    if (figure === null) {
      this.narrow[place] = NO_FIGURE;
      return;
    }
    const units = figure.exactUnits;
    if (units !== undefined && units % UNITS_PER_NARROW === 0) {
      const narrow = units / UNITS_PER_NARROW;
      // Of 32 bits but the two marks.
      if (narrow > WIDE && narrow <= 0x7fffffff) {
        this.narrow[place] = narrow;
        return;
      }
    }
    this.narrow[place] = WIDE;
    const wide = (this.wide ??= new Float64Array(this.narrow.length));
    if (units !== undefined) wide[place] = units;
    else {
      wide[place] = LARGE;
      (this.large ??= new Map()).set(place, figure);
    }
  }

  /**
   * The row's figure at `index` for writing it out: its exact units in `slot`, without a `Decimal`
   * (`figure` makes one), or null; the rare figure beyond a number's exact units as its Decimal.
   */
  figureInto(row: number, index: number, slot: ExactUnits): ExactUnits | Decimal | null {
    const place = row * this.width + index;
    const narrow = this.narrow[place];
    if (narrow > WIDE) slot.units = narrow * UNITS_PER_NARROW;
    else if (narrow === NO_FIGURE) return null;
    else {
      const units = (this.wide as Float64Array)[place];
      if (units === LARGE) return this.large?.get(place) as Decimal;
      slot.units = units;
    }
    return slot;
  }

  /** The row's figure at `index`: a new `Decimal` of the value put there (the same value at every reading), or null. */
  figure(row: number, index: number): Decimal | null {
    const place = row * this.width + index;
    const narrow = this.narrow[place];
    if (narrow > WIDE) return Decimal.fromExactUnits(narrow * UNITS_PER_NARROW);
    if (narrow === NO_FIGURE) return null;
    const units = (this.wide as Float64Array)[place];
    return units === LARGE ? (this.large?.get(place) as Decimal) : Decimal.fromExactUnits(units);
  }

  /** Sets the row's number at `index`: a whole number of 32 bits (but -2^31), or undefined for none. */
  putNumber(row: number, index: number, value: number | undefined): void {
    if (value !== undefined && !(Number.isInteger(value) && value > NO_NUMBER && value <= 0x7fffffff)) {
      throw new RangeError(`a packed row's number must be a whole number of 32 bits, not ${value}`);
    }
    this.numbers[row * this.numberWidth + index] = value ?? NO_NUMBER;
  }

  number(row: number, index: number): number | undefined {
    const value = this.numbers[row * this.numberWidth + index];
    return value === NO_NUMBER ? undefined : value;
  }

  /** Sets the row's text at `index`; a text already in the chunk's table is kept once. */
  putText(row: number, index: number, text: string | null): void {
    this.textPlaces[row * this.textWidth + index] = text === null ? NO_TEXT : this.texts.placeOf(text);
  }

  text(row: number, index: number): string | null {
    const place = this.textPlaces[row * this.textWidth + index];
    return place === NO_TEXT ? null : this.texts.at(place);
  }

  /** The places a chunk has for texts: one per row and text field. */
  get textFields(): number {
    return ROWS_PER_CHUNK * this.textWidth;
  }

  /** Sets the row's cells as JSON (NO_CELLS: none kept). */
  putCells(row: number, json: string): void {
    const held = this.cellTexts?.[row] !== undefined;
    if (json === NO_CELLS) {
      if (!held) return;
      (this.cellTexts as (string | undefined)[])[row] = undefined;
      this.cellsHeld -= 1;
      if (this.cellsHeld === 0) this.cellTexts = undefined;
      return;
    }
    if (!held) this.cellsHeld += 1;
    (this.cellTexts ??= [])[row] = json;
  }

  cells(row: number): string {
    return this.cellTexts?.[row] ?? NO_CELLS;
  }

  /** Sets the row's key (undefined: none). */
  putKey(row: number, key: string | undefined): void {
    this.keyTexts?.delete(row);
    if (key === undefined) this.keyKinds[row] = NO_KEY;
    else if (writeKeyBytes((this.keys ??= Buffer.allocUnsafeSlow(ROWS_PER_CHUNK * KEY_BYTES)), row * KEY_BYTES, key)) this.keyKinds[row] = KEY_IN_BYTES;
    else {
      this.keyKinds[row] = KEY_AS_TEXT;
      (this.keyTexts ??= new Map()).set(row, key);
    }
  }

  /** Sets the row's key from the first KEY_BYTES of `digest`, bytes as the codes of its characters (latin1). */
  putKeyBytes(row: number, digest: string): void {
    this.keyTexts?.delete(row);
    const keys = (this.keys ??= Buffer.allocUnsafeSlow(ROWS_PER_CHUNK * KEY_BYTES));
    const at = row * KEY_BYTES;
    for (let index = 0; index < KEY_BYTES; index += 1) keys[at + index] = digest.charCodeAt(index);
    this.keyKinds[row] = KEY_IN_BYTES;
  }

  /** Whether the row has a key (`key` would give one). */
  hasKey(row: number): boolean {
    return this.keyKinds[row] !== NO_KEY;
  }

  /** The row's key: a new string of the key put (the same text at every reading), or undefined. */
  key(row: number): string | undefined {
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
 * The texts of the rows of chunks, each kept once, by its place (a number of 16 bits): the chunks of a
 * packing share one as long as it has room for a chunk's texts. Each chunk kept a list of its own
 * before, with a text once for each chunk its rows were in: at a million rows of 10,000 symbols, a
 * symbol and a name for nearly every row (17 MB of lists as the files were read, and the strings).
 */
export class TextTable {
  private readonly list: string[] = [];
  private readonly places = new Map<string, number>();

  /** `text`'s place, the one it was given before if it was. */
  placeOf(text: string): number {
    let place = this.places.get(text);
    if (place === undefined) {
      if (this.list.length === NO_TEXT) throw new RangeError('a text table holds fewer than 65,535 texts');
      place = this.list.push(text) - 1;
      this.places.set(text, place);
    }
    return place;
  }

  at(place: number): string {
    return this.list[place];
  }

  /** Whether `count` texts more fit, all new. */
  hasRoomFor(count: number): boolean {
    return this.list.length + count <= NO_TEXT;
  }
}

/**
 * Places for rows of one shape, in chunk after chunk: a full chunk lives as long as a row packed into
 * it does. Rows are packed where they are held by the hundred thousand (a large file's, an account's):
 * as objects with their figures, they were most of a million-row import's memory (docs/imports.md).
 * The chunk being filled, and the table of texts it shares, stay until the next rows are packed:
 * between imports, the last one's texts (its symbols, names, dates …; 65,535 at most).
 */
export class FigurePacking {
  private chunk: FigureChunk;
  private texts = new TextTable();
  private rows = 0;

  constructor(private readonly shape: RowShape) {
    this.chunk = new FigureChunk(shape, this.texts);
  }

  /** A new row's place: its chunk, and its row there. */
  place(): { chunk: FigureChunk; row: number } {
    if (this.rows === ROWS_PER_CHUNK) {
      // A new table where this one may not hold all of the next chunk's texts.
      if (!this.texts.hasRoomFor(this.chunk.textFields)) this.texts = new TextTable();
      this.chunk = new FigureChunk(this.shape, this.texts);
      this.rows = 0;
    }
    const row = this.rows;
    this.rows += 1;
    return { chunk: this.chunk, row };
  }
}

/**
 * A row whose fields are packed at a place `packing` gives it: its class's constructor puts each
 * (`putFigure`, `putNumber`, `putText`, by the index it reads it back with: `figure`, `number`,
 * `text`; realized-lot.ts, broker-transaction.ts), one call a field (arrays of a row's fields to put
 * were three arrays and an object for every row read, 25 MB of a 100,000-row import). Its natural key
 * is kept in the chunk too (`fingerprint`). What is left in the heap is the object: its chunk and its
 * row there, and what its class adds.
 */
export abstract class PackedFigures {
  readonly #chunk: FigureChunk;
  readonly #row: number;

  protected constructor(packing: FigurePacking) {
    const { chunk, row } = packing.place();
    this.#chunk = chunk;
    this.#row = row;
  }

  protected putFigure(index: number, figure: Decimal | null): void {
    this.#chunk.putFigure(this.#row, index, figure);
  }

  protected putNumber(index: number, value: number | undefined): void {
    this.#chunk.putNumber(this.#row, index, value);
  }

  protected putText(index: number, text: string | null): void {
    this.#chunk.putText(this.#row, index, text);
  }

  /** The row's figure at `index` of those it was made with. */
  protected figure(index: number): Decimal | null {
    return this.#chunk.figure(this.#row, index);
  }

  /** The row's figure at `index` for writing it out, without making its `Decimal` (`FigureChunk.figureInto`). */
  figureInto(index: number, slot: ExactUnits): ExactUnits | Decimal | null {
    return this.#chunk.figureInto(this.#row, index, slot);
  }

  protected number(index: number): number | undefined {
    return this.#chunk.number(this.#row, index);
  }

  protected text(index: number): string | null {
    return this.#chunk.text(this.#row, index);
  }

  /** The row's cells as JSON, kept in its chunk until they are written (`'[]'` then, as a row read back from the database). */
  get cellsJson(): string {
    return this.#chunk.cells(this.#row);
  }

  set cellsJson(json: string) {
    this.#chunk.putCells(this.#row, json);
  }

  /** The row's natural key (fingerprint.ts), kept in its chunk; undefined until it is keyed. */
  get fingerprint(): string | undefined {
    return this.#chunk.key(this.#row);
  }

  set fingerprint(key: string | undefined) {
    this.#chunk.putKey(this.#row, key);
  }

  /** Whether the row has its natural key, without making its string (`fingerprint`). */
  get hasKey(): boolean {
    return this.#chunk.hasKey(this.#row);
  }

  /**
   * Sets the row's natural key from the SHA-256 digest it is the first 128 bits of, its bytes as the
   * codes of the digest's characters (fingerprint.ts): `fingerprint` then reads those bytes in
   * hexadecimal, as if they had been put as such.
   */
  keyIn(digest: string): void {
    this.#chunk.putKeyBytes(this.#row, digest);
  }
}
