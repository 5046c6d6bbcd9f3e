import { createHash } from 'node:crypto';
import { digestPrefix, type IsoDate } from '@app/shared/domain';
import { ROWS_PER_TURN, type Steps } from '../turns.js';
import { rowCellsJson, type CsvRow } from './csv-text.js';

/**
 * The days an earlier import of the user's read in a layout, by layout id: a file's rows of those days
 * are put aside unread (`FileDays.waiting`) until the import knows whether its account holds them exactly.
 */
export type SeenDays = ReadonlyMap<string, ReadonlySet<IsoDate>>;

/**
 * A row put aside: its line and its cells as JSON text (what the digest took, and the row stores), not
 * its cells, which a large upload's days seen before held by the hundred thousand (a lot's 25 cells
 * each), outliving young collections: a 90-day export into an account of a million rows spent ~0.6 s
 * collecting them.
 */
export interface RowAside {
  readonly line: number;
  readonly json: string;
}

/**
 * A file's rows by day, for uploads that cost what they add (docs/imports.md): each day's
 * digest, and the rows put aside unread because their day was seen before. A day whose digest the
 * account holds is one an earlier import read byte for byte (the same layout, header and rows): every
 * row of it is stored, and its rows are not read, keyed or looked up again. The other days' rows put
 * aside are read once the account is known (`read`).
 */
export class FileDays<T> {
  readonly #read: (rows: readonly CsvRow[]) => T[];

  constructor(
    /** The layout's id (a digest holds for one layout only). */
    readonly layout: string,
    /** Each day's digest: the header's cells and the day's rows' cells, in file order (128 bits, 32 hexadecimal digits). */
    readonly digests: ReadonlyMap<IsoDate, string>,
    /** The rows put aside, by day, in file order. */
    readonly waiting: ReadonlyMap<IsoDate, readonly RowAside[]>,
    /** How many rows are put aside. */
    readonly waitingRows: number,
    read: (rows: readonly CsvRow[]) => T[],
  ) {
    this.#read = read;
  }

  /** Reads rows put aside, as the layout reads each row; throws ImportFileError for a bad one. */
  read(rows: readonly CsvRow[]): T[] {
    return this.#read(rows);
  }
}

/** Rows' texts a day's digest takes in one update (updating it a row at a time cost twice as much, with its garbage). */
const ROWS_PER_UPDATE = 256;

/**
 * One day's digest, taken in as its rows are read: the header's and the rows' texts, one per line, a
 * few hundred rows' lines at a time. Digesting each day's text once the file was read held the event
 * loop for most of a second with a million rows.
 */
class DayDigest {
  private readonly hash = createHash('sha256');
  /** Texts not taken in yet; after the first update, led by '' (the line break after the texts before). */
  private texts: string[];

  constructor(header: string) {
    this.texts = [header];
  }

  add(text: string): void {
    this.texts.push(text);
    this.takeIn(ROWS_PER_UPDATE);
  }

  /** Takes in the texts not taken in yet, if there are at least `least` of them. */
  takeIn(least: number): void {
    if (this.texts.length > least) this.update();
  }

  /** 128 bits as 32 hexadecimal digits (a string of its own, not a slice keeping the whole digest). */
  hex(): string {
    this.update();
    return digestPrefix(this.hash.digest('hex'), 32);
  }

  private update(): void {
    // A row's JSON cannot hold a line break: the rows stay apart in the digest.
    this.hash.update(this.texts.join('\n'));
    this.texts = [''];
  }
}

/**
 * A day left for another takes in its texts if it holds at least this many: in a file whose days are
 * mixed, not listed one after another, a day is left at nearly every row, and an update of a few rows
 * costs what one of hundreds does.
 */
const ROWS_PER_DAY_CHANGE = 16;

/** Builds a file's `FileDays` while its rows are read (a layout whose rows each carry one day). */
export class DayDigests {
  private readonly days = new Map<IsoDate, DayDigest>();
  /** The day of the row added last, and its digest. */
  private lastDay: IsoDate | undefined;
  private lastDigest: DayDigest | undefined;
  private readonly waiting = new Map<IsoDate, RowAside[]>();
  private waitingRows = 0;
  private readonly header: string;

  constructor(
    private readonly layout: string,
    header: CsvRow,
    private readonly seen: ReadonlySet<IsoDate> = NONE,
  ) {
    this.header = rowCellsJson(header);
  }

  /** Adds a data row to its day's digest; true when the row is put aside (its day was seen before), so not to be read now. */
  putAside(day: IsoDate, row: CsvRow): boolean {
    let digest = this.lastDigest;
    if (digest === undefined || day !== this.lastDay) {
      // A file moving on to another day (brokers list rows day by day) has the day before taken in
      // now: its rows' texts were held to the file's end, as most days have fewer than
      // ROWS_PER_UPDATE rows, and with them the file's text they are cut from.
      this.lastDigest?.takeIn(ROWS_PER_DAY_CHANGE);
      digest = this.days.get(day);
      if (digest === undefined) this.days.set(day, (digest = new DayDigest(this.header)));
      this.lastDay = day;
      this.lastDigest = digest;
    }
    const json = rowCellsJson(row);
    digest.add(json);
    if (!this.seen.has(day)) return false;
    let rows = this.waiting.get(day);
    if (rows === undefined) this.waiting.set(day, (rows = []));
    rows.push({ line: row.line, json });
    this.waitingRows += 1;
    return true;
  }

  /** The file's days once every row is added; `read` reads rows put aside. */
  finish<T>(read: (rows: readonly CsvRow[]) => T[]): FileDays<T> {
    const digests = new Map<IsoDate, string>();
    for (const [day, digest] of this.days) digests.set(day, digest.hex());
    this.days.clear();
    this.lastDay = this.lastDigest = undefined;
    return new FileDays(this.layout, digests, this.waiting, this.waitingRows, read);
  }
}

const NONE: ReadonlySet<IsoDate> = new Set();

/**
 * The file's rows with those put aside whose day is not in `known` read and put back in file order
 * (by line); the days in `known` stay unread (`knownRows` counts their rows). `rows` is the rows the
 * file's reading read, in file order. Steps (turns.ts): a turn every ROWS_PER_TURN rows read.
 */
export function* withUnknownDays<T extends { line: number }>(rows: T[], days: FileDays<T> | undefined, known: ReadonlySet<IsoDate>): Steps<{ rows: T[]; knownRows: number }> {
  if (days === undefined || days.waitingRows === 0) return { rows, knownRows: 0 };
  const unread: RowAside[] = [];
  let knownRows = 0;
  for (const [day, waiting] of days.waiting) {
    if (known.has(day)) knownRows += waiting.length;
    else for (const row of waiting) unread.push(row);
  }
  if (unread.length === 0) return { rows, knownRows };
  const all = [...rows];
  for (let start = 0; start < unread.length; start += ROWS_PER_TURN) {
    if (start > 0) yield;
    const slice = unread.slice(start, start + ROWS_PER_TURN).map(({ line, json }): CsvRow => ({ line, cells: JSON.parse(json) as string[], json }));
    for (const row of days.read(slice)) all.push(row);
  }
  all.sort((a, b) => a.line - b.line);
  return { rows: all, knownRows };
}
