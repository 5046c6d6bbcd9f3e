import { BatchFeed } from '@app/shared';
import { decimalTextRoom, ExactUnits, isSmallInteger, SMALL_INTEGER_ROOM, writeDecimalText, writeSmallInteger, type Decimal } from '@app/shared/domain';

/**
 * A value of one column of a row written with `COPY`: numbers and exact decimals travel as their
 * text (a Decimal as `toString` gives it, written without making that string: `copyPieces`; a figure
 * given by its exact units as its Decimal's, `ExactUnits`).
 */
export type CopyValue = string | number | boolean | Decimal | ExactUnits | null;

/** An optional exact number as a query parameter's text: missing is null. */
export function textOrNull(value: { toString(): string } | null | undefined): string | null {
  return value === null || value === undefined ? null : value.toString();
}

/** One `COPY … FROM` target: a table and the columns each row gives, in that order. */
export interface CopyTarget {
  table: string;
  columns: readonly string[];
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const SPECIAL = /[\\\t\n\r]/;
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** `COPY table (columns) FROM source` in text format, the names checked (they come from code, never from input). */
export function copyStatement(target: CopyTarget, source: string): string {
  for (const name of [target.table, ...target.columns]) {
    if (!IDENTIFIER.test(name)) throw new Error(`not a plain SQL identifier: ${name}`);
  }
  return `COPY ${target.table} (${target.columns.join(', ')}) FROM ${source}`;
}

/** One field in PostgreSQL's COPY text format: `\N` for null, backslash, tab and line breaks escaped. */
export function copyField(value: CopyValue): string {
  if (value === null) return '\\N';
  const text = typeof value === 'string' ? value : value instanceof ExactUnits ? value.toDecimal().toString() : String(value);
  return SPECIAL.test(text) ? text.replace(SPECIALS, (character) => ESCAPES[character]) : text;
}

/**
 * A job's rows: all of them, or batches of them as they are worked out (the trades of an import while
 * its matching goes on): the writer sends each batch as it comes, and the table takes the rows in. A
 * row is read before the next is asked for, so rows may be one array filled anew (`filledRows`).
 */
export type CopyRows = Iterable<readonly CopyValue[]> | AsyncIterable<Iterable<readonly CopyValue[]>>;

/** Rows to write into one table. */
export interface CopyJob {
  target: CopyTarget;
  /**
   * The rows, or a function that works them out when the writer comes to them (its work may take
   * turns of the event loop, which making the first row of an iterable cannot).
   */
  rows: CopyRows | (() => Promise<CopyRows>);
}

/**
 * Rows to write into one table whose COPY text is made already: by the thread an import runs on,
 * while the thread that holds the connection writes it (docs/imports.md).
 */
export interface CopyTextJob {
  target: CopyTarget;
  pieces: AsyncIterable<CopyPiece>;
}

/** A job's rows, worked out first if the job gives them so. */
export async function rowsOfJob(job: CopyJob): Promise<CopyRows> {
  return typeof job.rows === 'function' ? job.rows() : job.rows;
}

/** Every row of a job, its batches awaited, each row a copy of its own (for specs and small jobs). */
export async function allRowsOfJob(job: CopyJob): Promise<(readonly CopyValue[])[]> {
  const rows = await rowsOfJob(job);
  if (!(Symbol.asyncIterator in rows)) return Array.from(rows, copyOfRow);
  const all: (readonly CopyValue[])[] = [];
  for await (const batch of rows) for (const row of batch) all.push(copyOfRow(row));
  return all;
}

/** A row's values in an array of its own, a figure given by its exact units (filled anew for the next row) as its Decimal. */
function copyOfRow(row: readonly CopyValue[]): CopyValue[] {
  return row.map((value) => (value instanceof ExactUnits ? value.toDecimal() : value));
}

/** A job's COPY text: made as it is asked for from its rows (`copyPieces`), or the text it holds. */
export async function piecesOfJob(job: CopyJob | CopyTextJob, pause: () => Promise<void>): Promise<AsyncIterable<CopyPiece>> {
  return 'pieces' in job ? job.pieces : copyPieces(await rowsOfJob(job), pause);
}

/**
 * The job as COPY text made from now on, whether or not the writer has come to it: each batch of rows,
 * as it comes, is made into pieces at once (turns of the event loop taken through `pause`) and let go
 * of, the pieces waiting for the writer instead. For rows given as they are worked out faster than
 * the database takes them in (an import's trades, while matching goes on): a piece holds a trade's
 * row in ~300 bytes outside V8's heap, where the trade waiting as objects held ~600 in it (a
 * million-row import's live heap at the end of its matching: docs/imports.md). A failure
 * to make the rows fails the pieces, for the writer to meet.
 */
export function textAhead(job: CopyJob, pause: () => Promise<void>): CopyTextJob {
  const made = new BatchFeed<CopyPiece>();
  void (async () => {
    try {
      for await (const piece of await piecesOfJob(job, pause)) made.add([piece]);
      made.end();
    } catch (error) {
      made.fail(error);
    }
  })();
  return { target: job.target, pieces: eachOf(made) };
}

/** The items of batches, one by one. */
async function* eachOf<T>(batches: AsyncIterable<readonly T[]>): AsyncGenerator<T> {
  for await (const batch of batches) yield* batch;
}

/** One row per item, made as they are asked for. */
export function* rowsOf<T>(items: Iterable<T>, toRow: (item: T, index: number) => readonly CopyValue[]): Generator<readonly CopyValue[]> {
  let index = 0;
  for (const item of items) yield toRow(item, index++);
}

/**
 * One row per item as `rowsOf` gives them, each in the same array of `width` fields, filled anew by
 * `fill` as it is asked for (`CopyRows`): an array per row was 3% of what a 100,000-row import allocated.
 */
export function* filledRows<T>(items: Iterable<T>, width: number, fill: (item: T, row: CopyValue[], index: number) => void): Generator<readonly CopyValue[]> {
  const row = new Array<CopyValue>(width).fill(null);
  let index = 0;
  for (const item of items) {
    fill(item, row, index++);
    yield row;
  }
}

/** Rows built between two calls of `pause` by `copyPieces`. */
const ROWS_PER_PAUSE = 100;

/**
 * Bytes of COPY text per piece, about (a piece ends with the line that reaches it). A piece is UTF-8
 * bytes outside V8's heap, written a field at a time: a text field's string is copied into it, and
 * numbers and exact decimals are written from their values, with no string at all. Joining lines into
 * a piece's string, and that string into bytes for the socket or the engine's spool file, made the
 * rows' text three times (a tenth of all a 100,000-row import allocated, and of the young-generation
 * collections that cost it 1.2-1.4 s; docs/imports.md), and a line's string twice.
 */
export const COPY_PIECE_BYTES = 32_000;

/** Room a new piece has beyond COPY_PIECE_BYTES for the line that reaches it (a longer line grows it). */
const PIECE_SLACK_BYTES = 4_096;

/** Some rows' COPY text: whole lines, each ending in a newline. */
export interface CopyPiece {
  /** The lines as UTF-8. */
  bytes: Buffer;
  rows: number;
  /**
   * For the writer to call once the bytes are written out (the socket or the spool file has them), if
   * it can tell: a piece made on an import's thread then goes back to it to be filled again
   * (`serveThreadDatabase`). Pieces not given back are left to the garbage collector.
   */
  release?: () => void;
}

/**
 * Buffers of pieces given back by the thread that wrote them (`givePieceBufferBack`), for the next
 * pieces made here. Each piece of an import's thread arrived on the main thread as new memory outside
 * its heap, which V8 counts against the heap's limit until a full collection lets it go: the main
 * thread's heap (~50 MB, hardly any of it garbage) was collected whole every second or so through a
 * million-row import, each time marking ~150 ms on V8's own threads, on the two cores the import and
 * the database share (docs/imports.md). A piece given back is no longer the main thread's.
 */
const givenBack: ArrayBuffer[] = [];

/** Buffers kept at most for pieces to come (as many as may be on their way back at once, and some). */
const GIVEN_BACK_KEPT = 16;

/** Keeps `buffer` (a piece's, whose bytes are written) for the next piece made on this thread. */
export function givePieceBufferBack(buffer: ArrayBuffer): void {
  if (givenBack.length < GIVEN_BACK_KEPT && buffer.byteLength >= COPY_PIECE_BYTES + PIECE_SLACK_BYTES) givenBack.push(buffer);
}

/**
 * The rows as COPY text in pieces of about `COPY_PIECE_BYTES` bytes, built only as they are asked
 * for: a server takes in one piece while the next is being built, and no more than a piece is held as
 * text at once. It awaits `pause` every hundred rows while it builds (where the caller may give the
 * event loop a turn: thousands of rows took 20–60 ms to build on cold code, with no other request
 * answered meanwhile).
 */
export async function* copyPieces(rows: CopyRows, pause: () => Promise<void>, pieceBytes: number = COPY_PIECE_BYTES): AsyncGenerator<CopyPiece> {
  const lines = new CopyLines(pieceBytes);
  // Rows given in batches as they are worked out: a piece is sent once full, whichever batch fills it.
  const batches = Symbol.asyncIterator in rows ? rows : [rows];
  for await (const batch of batches) {
    for (const row of batch) {
      const piece = lines.add(row);
      if (piece !== undefined) yield piece;
      if (lines.count % ROWS_PER_PAUSE === 0) await pause();
    }
  }
  const last = lines.rest();
  if (last !== undefined) yield last;
}

/**
 * The COPY text of rows, a line at a time, in pieces of about `pieceBytes` (`copyPieces`). Apart from
 * the generator that walks the rows: every table's rows come from iterables of their own (arrays,
 * generators of each table's rows), so the generator meets new shapes of them table after table and
 * V8 compiled it again for each (seven times in a 100,000-row import, 15–36 ms each), where the
 * rows themselves are always arrays, and the code that writes them is compiled once.
 */
class CopyLines {
  private piece: Buffer | undefined;
  private length = 0;
  private rows = 0;

  constructor(private readonly pieceBytes: number) {}

  /** Rows in the piece being filled. */
  get count(): number {
    return this.rows;
  }

  /** Appends a row's line: answers the piece it filled, if it did, and starts the next. */
  add(row: readonly CopyValue[]): CopyPiece | undefined {
    let piece = this.piece;
    let length = this.length;
    for (let index = 0; index < row.length; index += 1) {
      const value = row[index];
      // The field's text where it is written as a string, and the bytes it may take.
      let text: string | undefined;
      let room: number;
      if (typeof value === 'string') {
        text = value;
        room = 3 * text.length; // a UTF-16 code unit takes at most 3 bytes of UTF-8 (a pair of them 4), an escaped one 2
      } else if (value === null) {
        room = 2;
      } else if (typeof value === 'number') {
        if (isSmallInteger(value)) room = SMALL_INTEGER_ROOM;
        else room = (text = String(value)).length;
      } else if (typeof value === 'boolean') {
        room = (text = String(value)).length;
      } else {
        room = decimalTextRoom(value);
      }
      // The tab before it and the line end after the row's last field.
      if (piece === undefined || piece.length - length < room + 2) piece = grown(piece, length, room + 2, this.pieceBytes);
      if (index > 0) piece[length++] = 0x09;
      if (text !== undefined) {
        length = writeText(piece, text, length);
      } else if (value === null) {
        piece[length++] = 0x5c; /* \ */
        piece[length++] = 0x4e; /* N */
      } else if (typeof value === 'number') {
        length = writeSmallInteger(piece, value, length);
      } else if (typeof value === 'object') {
        length = writeDecimalText(piece, value, length);
      }
    }
    if (piece === undefined || piece.length === length) piece = grown(piece, length, 1, this.pieceBytes);
    piece[length++] = 0x0a;
    this.rows += 1;
    if (length >= this.pieceBytes) {
      const full = { bytes: piece.subarray(0, length), rows: this.rows };
      this.piece = undefined;
      this.length = 0;
      this.rows = 0;
      return full;
    }
    this.piece = piece;
    this.length = length;
    return undefined;
  }

  /** The piece begun, if any row is in it. */
  rest(): CopyPiece | undefined {
    return this.piece !== undefined && this.rows > 0 ? { bytes: this.piece.subarray(0, this.length), rows: this.rows } : undefined;
  }
}

/** A new piece holding the `length` bytes written of `piece` so far (the lines and the row begun) and `room` more. */
function grown(piece: Buffer | undefined, length: number, room: number, pieceBytes: number): Buffer {
  const size = Math.max(pieceBytes + PIECE_SLACK_BYTES, length + room);
  const reused = givenBack.length > 0 && givenBack[givenBack.length - 1].byteLength >= size ? givenBack.pop() : undefined;
  const next = reused === undefined ? Buffer.allocUnsafe(size) : Buffer.from(reused);
  piece?.copy(next, 0, 0, length);
  return next;
}

/** Fields up to this long are copied a character at a time while they are ASCII with nothing to escape; a call into Buffer's UTF-8 writer costs more. */
const SHORT_FIELD = 32;

/**
 * Writes `text` as one field of COPY text (`copyField`), UTF-8, into `buffer` at `at` (room checked by
 * the caller), answering where it ends. The row's fields go in one by one, not as the line's string:
 * joining them made every row's text once more, the largest of the import's allocations (200 MB of a
 * 100,000-row import's 1.4 GB).
 */
function writeText(buffer: Buffer, text: string, at: number): number {
  if (text.length <= SHORT_FIELD) {
    let index = 0;
    for (; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      // Past ASCII, or a backslash, tab or line break (which copyField escapes): written the long way.
      if (code > 0x7f || code === 0x5c || code === 0x09 || code === 0x0a || code === 0x0d) break;
      buffer[at + index] = code;
    }
    if (index === text.length) return at + index;
  }
  return at + buffer.write(copyField(text), at, 'utf8');
}
