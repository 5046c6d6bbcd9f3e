/** A value of one column of a row written with `COPY`: numbers and decimals travel as their text. */
export type CopyValue = string | number | boolean | null;

/** An optional exact number as a column's text (for `COPY` or a query parameter): missing is null. */
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
  const text = typeof value === 'string' ? value : String(value);
  return SPECIAL.test(text) ? text.replace(SPECIALS, (character) => ESCAPES[character]) : text;
}

/** Rows to write into one table. */
export interface CopyJob {
  target: CopyTarget;
  /**
   * The rows, or a function that works them out when the writer comes to them (its work may take
   * turns of the event loop, which making the first row of an iterable cannot).
   */
  rows: Iterable<readonly CopyValue[]> | (() => Promise<Iterable<readonly CopyValue[]>>);
}

/** A job's rows, worked out first if the job gives them so. */
export async function rowsOfJob(job: CopyJob): Promise<Iterable<readonly CopyValue[]>> {
  return typeof job.rows === 'function' ? job.rows() : job.rows;
}

/** One row per item, made as they are asked for. */
export function* rowsOf<T>(items: Iterable<T>, toRow: (item: T, index: number) => readonly CopyValue[]): Generator<readonly CopyValue[]> {
  let index = 0;
  for (const item of items) yield toRow(item, index++);
}

/** Rows built between two calls of `pause` by `copyPieces`. */
const ROWS_PER_PAUSE = 100;

/**
 * Characters of COPY text per piece at most (a row's line more): a piece stays a young-generation
 * string. V8 puts a string over 128 KB in its large-object space, which only a full collection empties:
 * 2,000-row chunks (300–400 KB) left about 45 MB of such garbage behind a 100,000-row import, a twentieth
 * of its peak memory. Two-byte text (any character beyond Latin-1) takes twice the characters' bytes.
 */
export const COPY_PIECE_CHARS = 32_000;

/** Some rows' COPY text: whole lines, each ending in a newline. */
export interface CopyPiece {
  text: string;
  rows: number;
}

/**
 * The rows as COPY text in pieces of about `COPY_PIECE_CHARS` characters, built only as they are asked
 * for: a server takes in one piece while the next is being built, and no more than a piece is held as
 * text at once. It awaits `pause` every hundred rows while it builds (where the caller may give the
 * event loop a turn: thousands of rows took 20–60 ms to build on cold code, with no other request
 * answered meanwhile).
 */
export async function* copyPieces(rows: Iterable<readonly CopyValue[]>, pause: () => Promise<void>, pieceChars: number = COPY_PIECE_CHARS): AsyncGenerator<CopyPiece> {
  let lines: string[] = [];
  let chars = 0;
  for (const row of rows) {
    const line = copyLine(row);
    lines.push(line);
    chars += line.length + 1;
    if (chars >= pieceChars) {
      yield { text: `${lines.join('\n')}\n`, rows: lines.length };
      lines = [];
      chars = 0;
    }
    if (lines.length % ROWS_PER_PAUSE === 0) await pause();
  }
  if (lines.length > 0) yield { text: `${lines.join('\n')}\n`, rows: lines.length };
}

/** One row as a line of COPY text (without its line end). */
function copyLine(row: readonly CopyValue[]): string {
  return row.map(copyField).join('\t');
}
