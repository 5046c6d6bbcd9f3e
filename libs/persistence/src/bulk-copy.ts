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
  rows: Iterable<readonly CopyValue[]>;
}

/** One row per item, made as they are asked for. */
export function* rowsOf<T>(items: Iterable<T>, toRow: (item: T, index: number) => readonly CopyValue[]): Generator<readonly CopyValue[]> {
  let index = 0;
  for (const item of items) yield toRow(item, index++);
}

/** Rows built between two calls of `pause` by `copyChunks`. */
const ROWS_PER_PAUSE = 100;

/**
 * The rows as COPY text, `rowsPerChunk` rows per string, built only as they are asked for: a server
 * takes in one chunk while the next is being built, and no more than a chunk is held as text at once.
 * It awaits `pause` every hundred rows while it builds (where the caller may give the event loop a
 * turn: a chunk of thousands of rows took 20–60 ms to build on cold code, with no other request
 * answered meanwhile).
 */
export async function* copyChunks(rows: Iterable<readonly CopyValue[]>, rowsPerChunk: number, pause: () => Promise<void>): AsyncGenerator<string> {
  let lines: string[] = [];
  for (const row of rows) {
    lines.push(copyLine(row));
    if (lines.length === rowsPerChunk) {
      yield `${lines.join('\n')}\n`;
      lines = [];
    }
    if (lines.length % ROWS_PER_PAUSE === 0) await pause();
  }
  if (lines.length > 0) yield `${lines.join('\n')}\n`;
}

/** One row as a line of COPY text (without its line end). */
function copyLine(row: readonly CopyValue[]): string {
  return row.map(copyField).join('\t');
}
