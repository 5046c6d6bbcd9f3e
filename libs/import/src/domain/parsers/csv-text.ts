import { isUtf8 } from 'node:buffer';
import Papa from 'papaparse';
import { ImportFileError } from '../import.errors.js';
import { runSteps, runStepsWithTurns, type Steps } from '../turns.js';

/** One CSV record with the physical line it starts on (1-based; a BOM is not a line). */
export interface CsvRow {
  readonly line: number;
  readonly cells: readonly string[];
  /**
   * `JSON.stringify(cells)` when the reading had it at hand, else undefined: a comma-separated line
   * whose every cell is quoted, with nothing JSON escapes inside (no quote, backslash, tab, CR or line
   * break), is that text already once put in brackets (`rowCellsJson`).
   */
  readonly json: string | undefined;
}

/** The row's cells as JSON text (what an import stores of each row as read). */
export function rowCellsJson(row: CsvRow): string {
  return row.json ?? JSON.stringify(row.cells);
}

/**
 * Records taken one after another (an array of them is one too). A file's data rows are read as they
 * are taken (`streamCsvRows`), so the cells of the rows already read are let go while the rest of a
 * large file is read.
 */
export interface CsvRecords extends Iterable<CsvRow> {
  entries(): IterableIterator<[number, CsvRow]>;
}

/** A C0 control other than tab, LF and CR, or DEL: text files have none. */
// eslint-disable-next-line no-control-regex -- finding control characters is this expression's purpose
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Offset of the first control character (CONTROL_CHARACTER), or -1. */
function firstControlCharacter(text: string): number {
  return text.search(CONTROL_CHARACTER);
}

function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) {
    line += 1;
  }
  return line;
}

/**
 * The file's text: UTF-8 (or UTF-16 with its BOM), BOM removed, line ends normalised to LF.
 * Refuses an empty file and binary content (NUL or other control bytes, or bytes that are neither
 * UTF-8 nor plain single-byte text).
 */
export function decodeCsvText(fileName: string, content: CsvContent): string {
  if (typeof content === 'string') return decodeText(fileName, content);
  if (content instanceof CheckedCsvBytes) return content.text(fileName);
  return runSteps(decoding(fileName, content, Infinity));
}

/** A file's content as a reading of its text takes it: its bytes, its text, or its bytes checked and in pieces (`CheckedCsvBytes`). */
export type CsvContent = Uint8Array | string | CheckedCsvBytes;

/** Bytes decoded between two pauses by `decodeCsvTextInTurns` (a few milliseconds of work). */
const DECODE_SLICE = 1024 * 1024;

/**
 * `decodeCsvText` of an uploaded file a slice at a time, awaiting `pause` between slices: decoding,
 * the control-character scan and the line-end normalisation of a 21 MB upload took ~130 ms at once
 * (a second for a million rows), with no other request answered meanwhile. The same text and the same
 * refusals; UTF-16 and text that is not UTF-8 are decoded at once.
 */
export function decodeCsvTextInTurns(fileName: string, content: Uint8Array, pause: () => Promise<void>, slice: number = DECODE_SLICE): Promise<string> {
  return runStepsWithTurns(decoding(fileName, content, slice), { pause });
}

/** Whether a file's name is one an import reads (`.csv`, any case); any other is refused unread. */
export function hasCsvName(name: string): boolean {
  return /\.csv$/i.test(name);
}

/**
 * Decodes an uploaded file while its bytes arrive: `add` each chunk as it comes, then `end` with the
 * whole content; the later decoding of that content (`decodeCsvText…`) finds its text. What is left
 * once the upload's last byte has come is then the last slice, not the whole file: the 14 MB lot details
 * of a 100,000-row upload took ~80 ms to decode, all of it between the last byte and the first progress
 * line. The slices (`slice` bytes, to a character's end) and their `normalising` are the ones of
 * `decodeCsvTextInTurns`, so the text is the same. What that decoding reads otherwise or refuses (a file
 * of one slice, UTF-16, bytes that are not UTF-8, a control character, a blank file) is left to it, which
 * gives the refusal: a receiver stops there, and never throws.
 */
export class CsvTextReceiver {
  /** Bytes received and not decoded yet (a slice is decoded once more than a slice and a character's bytes are here). */
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** Decoded slices the normalising has not taken yet; it looks one slice ahead, to know the last. */
  private readonly pieces: string[] = [];
  private ended = false;
  private normalised: Steps<string[]> | undefined;
  private stepped = false;
  private stopped = false;
  private readonly decoder = new Utf8PieceDecoder();

  constructor(
    private readonly fileName: string,
    private readonly slice: number = DECODE_SLICE,
  ) {}

  add(chunk: Uint8Array): void {
    if (this.stopped) return;
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    // More than a slice and a character's bytes: the slice is whole, and the last slice stays for `end`.
    this.attempt(() => {
      while (this.pendingBytes > this.slice + 4) this.decodeSlice();
    });
  }

  /** True when the text is decoded (the later decoding finds it); false when that decoding is left to do it. */
  end(content: Uint8Array): boolean {
    // Nothing decoded yet: a file of one slice (or little more) is decoded at once where it is read.
    const normalised = this.normalised;
    let decoded = false;
    if (!this.stopped && normalised !== undefined) {
      this.attempt(() => {
        this.pieces.push(this.decoder.decode(this.takenAll()));
        this.ended = true;
        DECODED.set(content, { fileName: this.fileName, pieces: runSteps(normalised) });
        decoded = true;
      });
    }
    this.stop();
    return decoded;
  }

  private decodeSlice(): void {
    const bytes = this.takenAll();
    const end = characterStart(bytes, this.slice);
    if (this.normalised === undefined && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
      throw new Error('UTF-16: decoded at once');
    }
    this.pending = [bytes.subarray(end)];
    this.pendingBytes = bytes.length - end;
    this.pieces.push(this.decoder.decode(bytes.subarray(0, end)));
    if (this.normalised === undefined) {
      const pieces: Iterator<string> = { next: () => this.nextPiece() };
      this.normalised = normalising(this.fileName, pieces);
    }
    // Its first step takes two slices (one to look ahead), each later one a slice more.
    if (this.pieces.length >= (this.stepped ? 1 : 2)) {
      this.stepped = true;
      this.normalised.next();
    }
  }

  private nextPiece(): IteratorResult<string> {
    const piece = this.pieces.shift();
    if (piece !== undefined) return { value: piece, done: false };
    if (!this.ended) throw new Error('no slice decoded yet');
    return { value: undefined, done: true };
  }

  /** The pending bytes as one array (none are pending after). */
  private takenAll(): Uint8Array {
    const bytes = this.pending.length === 1 ? this.pending[0] : joinBytes(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    return bytes;
  }

  /** Whatever went wrong is the later decoding's to find and say. */
  private attempt(work: () => void): void {
    try {
      work();
    } catch {
      this.stop();
    }
  }

  private stop(): void {
    this.stopped = true;
    this.pending = [];
    this.pieces.length = 0;
    this.normalised = undefined;
  }
}

/**
 * Checks an uploaded file as its bytes arrive and keeps none of its text (`CheckedCsvArrival` keeps
 * the bytes): for an upload whose import runs on a thread of its own, which decodes the bytes it is
 * handed. The text a `CsvTextReceiver` decodes stays here until the import has read it: at a million
 * rows, 200 MB of strings on the thread that answers every other request, whose collector then took
 * 44–126 ms at a time while the upload arrived (docs/imports.md "Large uploads on a thread of their
 * own").
 *
 * It passes only what decoding surely reads as UTF-8 text: valid UTF-8 (`isUtf8`, the characters cut
 * by the chunks checked whole), no control byte (CONTROL_CHARACTER's, which in UTF-8 are those bytes
 * alone) but the old end-of-file mark as the last byte, not blank (a printable ASCII character). Anything
 * else (UTF-16, single-byte text, a refusal) is left to the precheck's decoding, which reads or
 * refuses it as before.
 */
export class CsvTextChecker {
  /** A character's first bytes, the rest of it in the next chunk. */
  private carry: Uint8Array | undefined;
  private bytes = 0;
  /** Where the end-of-file mark (0x1a) is, if there is one. */
  private markAt = -1;
  private printable = false;
  private stopped = false;

  add(chunk: Uint8Array): void {
    if (this.stopped) return;
    let start = 0;
    if (this.carry !== undefined) {
      const carried = this.carry;
      const rest = sequenceLength(carried[0]) - carried.length;
      const next = chunk.subarray(0, rest);
      const whole = joinBytes([carried, next], carried.length + next.length);
      this.carry = undefined;
      if (chunk.length < rest) {
        this.carry = whole;
        this.bytes += chunk.length;
        return;
      }
      if (!isUtf8(whole)) return this.stop();
      start = rest;
    }
    // The last character may go on in the next chunk: held back until it is whole (a byte that starts
    // none stays in the body, which `isUtf8` then refuses).
    const end = lastCharacterEnd(chunk, start, chunk.length);
    const body = chunk.subarray(start, end);
    if (!isUtf8(body) || !this.scan(body, this.bytes + start)) return this.stop();
    if (end < chunk.length) this.carry = chunk.subarray(end);
    this.bytes += chunk.length;
  }

  /** True when the `length` bytes added are text decoding reads as it is. */
  passed(length: number): boolean {
    return !this.stopped && this.carry === undefined && this.bytes > 0 && this.bytes === length && this.printable && (this.markAt === -1 || this.markAt === this.bytes - 1);
  }

  /** False at a control byte other than one end-of-file mark (`offset`: where `bytes` start in the file). */
  private scan(bytes: Uint8Array, offset: number): boolean {
    let printable = this.printable;
    for (let at = 0; at < bytes.length; at += 1) {
      const byte = bytes[at];
      if (byte < 0x20) {
        if (byte === 0x09 || byte === 0x0a || byte === 0x0d) continue;
        if (byte !== 0x1a || this.markAt !== -1) return false;
        this.markAt = offset + at;
      } else if (byte === 0x7f) {
        return false;
      } else if (!printable && byte !== 0x20 && byte < 0x7f) {
        printable = true;
      }
    }
    this.printable = printable;
    return true;
  }

  private stop(): void {
    this.stopped = true;
    this.carry = undefined;
  }
}

/** The bytes of the UTF-8 character `lead` starts (0 for a byte that starts none). */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

function joinBytes(parts: readonly Uint8Array[], length: number): Uint8Array {
  const joined = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

/** Decoding as steps (turns.ts), stopping between slices of `slice` bytes; the text is remembered for the file's later readings. */
function* decoding(fileName: string, content: Uint8Array, slice: number): Steps<string> {
  // An upload's file is read more than once (the precheck, which file is which, the parse): decoded once.
  const decoded = decodedText(fileName, content);
  if (decoded !== undefined) return decoded;
  const text = (yield* decodedPieces(fileName, content, slice)).join('');
  DECODED.set(content, { fileName, text });
  return text;
}

/** The text of `content` (not remembered) in the pieces it is decoded in, `slice` bytes each (one for a file of one slice). */
function* decodedPieces(fileName: string, content: Uint8Array, slice: number): Steps<string[]> {
  if (content.length === 0) {
    throw ImportFileError.emptyFile(fileName);
  }
  const utf16 = (content[0] === 0xff && content[1] === 0xfe) || (content[0] === 0xfe && content[1] === 0xff);
  if (utf16 || content.length <= slice) {
    return [decodeText(fileName, decodeBytes(fileName, content))];
  }
  try {
    return yield* normalising(fileName, utf8Slices(content, slice));
  } catch (error) {
    if (!(error instanceof NotUtf8)) throw error;
    return [decodeText(fileName, decodeBytes(fileName, content))]; // read at once, as single-byte text
  }
}

/**
 * `decodeCsvText` as the pieces the text is decoded in (a slice of bytes each; those a received file
 * was decoded in as it arrived, `CsvTextReceiver`), not joined: a file's parse reads its records from
 * them a piece at a time (`streamCsvRows`) and lets each go once read, where one string of the whole
 * text, 140 MB for a million lots, was alive until the file's last row was read. Of `CheckedCsvBytes`,
 * each piece is decoded only when it is taken, its bytes let go of then (the file's one reading).
 */
export function decodeCsvPieces(fileName: string, content: CsvContent): TextPieces {
  if (typeof content === 'string') return [decodeText(fileName, content)];
  if (content instanceof CheckedCsvBytes) return new TextOnDemand(fileName, content.take(), true);
  const decoded = DECODED.get(content);
  if (decoded !== undefined && decoded.fileName === fileName) {
    if (decoded.text !== undefined) return [decoded.text];
    if (decoded.pieces !== undefined) return [...decoded.pieces];
  }
  return runSteps(decodedPieces(fileName, content, DECODE_SLICE));
}

/**
 * A text's pieces, taken from the front as its records are read (`streamCsvRows`): an array of them,
 * or the pieces of `CheckedCsvBytes` decoded as they are taken (`TextOnDemand`).
 */
export interface TextPieces {
  /** How many pieces are not taken yet (none: the whole text is taken). */
  readonly length: number;
  shift(): string | undefined;
  /** A piece not taken yet, by its place among them (looked at, not taken). */
  at(index: number): string | undefined;
}

/**
 * The pieces of a file's text decoded from its pieces of bytes when they are first looked at, each
 * piece of bytes let go of once decoded: the file's bytes and its text are never both whole.
 */
class TextOnDemand implements TextPieces {
  private readonly decoded: string[] = [];
  private readonly normaliser: TextNormaliser;
  private readonly decoder = new Utf8PieceDecoder();

  constructor(
    fileName: string,
    /** The pieces of bytes not decoded yet, each cut between two characters (`CheckedCsvBytes`). */
    private readonly bytes: Uint8Array[],
    /** Whether each block (the buffer pieces are views of) is freed once its last piece is decoded: the pieces are the reading's alone. */
    private readonly freesBlocks: boolean,
  ) {
    if (bytes.length === 0) throw ImportFileError.emptyFile(fileName);
    this.normaliser = new TextNormaliser(fileName, true);
  }

  get length(): number {
    return this.decoded.length + this.bytes.length;
  }

  shift(): string | undefined {
    if (this.decoded.length === 0) this.decodeNext();
    return this.decoded.shift();
  }

  at(index: number): string | undefined {
    while (this.decoded.length <= index && this.bytes.length > 0) this.decodeNext();
    return this.decoded[index];
  }

  private decodeNext(): void {
    const bytes = this.bytes.shift();
    if (bytes === undefined) return;
    this.decoded.push(this.normaliser.next(this.decoder.decode(bytes), this.bytes.length === 0));
    if (this.freesBlocks && this.bytes[0]?.buffer !== bytes.buffer) freeNow(bytes.buffer);
  }
}

/**
 * Frees a buffer's memory (every view of it becomes empty): its memory is moved to a new buffer that
 * nothing holds, which the next collection of young objects frees, a few milliseconds later. The
 * buffer itself, old by the time its pieces are read, is collected only by a full collection: a
 * million-row import's thread ran none for as long as it read its files, and held all 217 MB of
 * their bytes until its trades were matched.
 */
function freeNow(buffer: ArrayBufferLike): void {
  structuredClone(buffer, { transfer: [buffer as ArrayBuffer] });
}

/**
 * A file `CsvTextChecker` passed (UTF-8 text that decoding reads as it is), its bytes in pieces of a
 * slice each, cut between characters, views of a few blocks (`CheckedCsvArrival`): how an import's
 * thread holds a large upload's files. Its parse decodes a piece only when it reaches its records and
 * lets the bytes go then (`decodeCsvPieces`), where the whole file decoded at once held its bytes and
 * all of its text together (a million rows' lots: 142 MB of each, the service's peak). Its head is
 * decoded from its first piece (`decodeCsvHead`); the precheck passes it (`checkCsvTextInTurns`).
 */
export class CheckedCsvBytes {
  private pieces: Uint8Array[] | undefined;

  private constructor(
    pieces: Uint8Array[],
    /** The file's bytes. */
    readonly length: number,
  ) {
    this.pieces = pieces;
  }

  /**
   * The pieces of `blocks` (each a whole number of characters of a file `CsvTextChecker` passed, in
   * order), not copied: each block cut into pieces of `slice` bytes, each to a character's end.
   */
  static ofBlocks(blocks: readonly Uint8Array[], slice: number = DECODE_SLICE): CheckedCsvBytes {
    const pieces: Uint8Array[] = [];
    let length = 0;
    for (const block of blocks) {
      for (let start = 0; start < block.length; ) {
        const end = characterStart(block, start + slice);
        pieces.push(block.subarray(start, end));
        start = end;
      }
      length += block.length;
    }
    return new CheckedCsvBytes(pieces, length);
  }

  /** The pieces another `CheckedCsvBytes` gave (`take`), as they are: an import's thread is handed a file so. */
  static ofPieces(pieces: Uint8Array[]): CheckedCsvBytes {
    return new CheckedCsvBytes(pieces, pieces.reduce((sum, piece) => sum + piece.length, 0));
  }

  /** The file's first bytes (up to a slice). */
  get head(): Uint8Array {
    return this.pieces?.[0] ?? new Uint8Array(0);
  }

  /** The whole text, the pieces kept. */
  text(fileName: string): string {
    const text = new TextOnDemand(fileName, [...this.held()], false);
    let joined = '';
    for (let piece = text.shift(); piece !== undefined; piece = text.shift()) joined += piece;
    return joined;
  }

  /** The pieces, for the file's one reading in pieces (`decodeCsvPieces`): they go as it decodes them. */
  take(): Uint8Array[] {
    const pieces = this.held();
    this.pieces = undefined;
    return pieces;
  }

  private held(): Uint8Array[] {
    if (this.pieces === undefined) throw new Error(`a file's pieces were read already`);
    return this.pieces;
  }
}

/**
 * The bytes of a block of `CheckedCsvBytes` pieces: more than glibc's 32 MB, for an allocation of its
 * own, given back whole once freed. Its malloc serves a smaller one from its arenas once it has given
 * back a larger one, and keeps what is freed there (1 MB pieces, each its own allocation, left 176 MB
 * more in the process at a million rows).
 */
const BLOCK_BYTES = 36 * 1024 * 1024;

/**
 * A large upload's CSV file as its bytes arrive (the upload's `FileReceiver` where its import goes to a
 * thread): checked (`CsvTextChecker`) and copied into blocks of BLOCK_BYTES, each cut at a character's
 * end, so that the chunks are neither kept nor joined. The file is then `CheckedCsvBytes` of those
 * blocks when the check passed, which the thread is handed as they are; otherwise its bytes joined,
 * decoded (or refused) as any file's. The thread copied the joined bytes into its blocks before: the
 * files were held twice there, the service's peak at a million rows (docs/imports.md "Large
 * uploads on a thread of their own").
 */
export class CheckedCsvArrival {
  private readonly checker: CsvTextChecker;
  private readonly blocks: Uint8Array[] = [];
  private block: Uint8Array | undefined;
  private used = 0;
  private length = 0;
  private readonly blockBytes: number;

  /** `blockBytes`: at least a character's 4; `slice`: the pieces' bytes (`CheckedCsvBytes.ofBlocks`). */
  constructor(
    blockBytes: number = BLOCK_BYTES,
    private readonly slice: number = DECODE_SLICE,
  ) {
    this.checker = new CsvTextChecker();
    this.blockBytes = Math.max(4, blockBytes);
  }

  add(chunk: Uint8Array): void {
    this.checker.add(chunk);
    this.length += chunk.length;
    for (let at = 0; at < chunk.length; ) {
      const block = (this.block ??= Buffer.allocUnsafeSlow(this.blockBytes));
      const taken = Math.min(chunk.length - at, block.length - this.used);
      block.set(chunk.subarray(at, at + taken), this.used);
      this.used += taken;
      at += taken;
      if (this.used === block.length) this.nextBlock();
    }
  }

  whole(): Buffer | CheckedCsvBytes {
    if (this.used > 0) this.blocks.push((this.block as Uint8Array).subarray(0, this.used));
    this.block = undefined;
    if (this.checker.passed(this.length)) return CheckedCsvBytes.ofBlocks(this.blocks, this.slice);
    const joined = Buffer.allocUnsafe(this.length);
    let at = 0;
    for (const block of this.blocks) {
      joined.set(block, at);
      at += block.length;
    }
    return joined;
  }

  /** Closes the full block at its last whole character; the bytes of one cut by the block's end start the next. */
  private nextBlock(): void {
    const block = this.block as Uint8Array;
    const end = lastCharacterEnd(block, 0, this.used);
    this.blocks.push(block.subarray(0, end));
    this.block = undefined;
    this.used = 0;
    if (end < block.length) {
      this.block = Buffer.allocUnsafeSlow(this.blockBytes);
      this.block.set(block.subarray(end), 0);
      this.used = block.length - end;
    }
  }
}

/** Where the last whole UTF-8 character of `bytes[from..length)` ends (`length` unless a character is cut there). */
function lastCharacterEnd(bytes: Uint8Array, from: number, length: number): number {
  let lead = length - 1;
  while (lead > from && lead > length - 4 && (bytes[lead] & 0xc0) === 0x80) lead -= 1;
  if (lead < from) return length;
  const size = sequenceLength(bytes[lead]);
  return size > 0 && lead + size > length ? lead : length;
}

/** The first pieces of a text, joined, up to the end of its `lines`-th line (all of them if it has fewer). */
export function textHead(pieces: TextPieces, lines: number): string {
  let head = '';
  for (let index = 0, piece = pieces.at(0); piece !== undefined; index += 1, piece = pieces.at(index)) {
    head += piece;
    if (hasLines(head, lines)) break;
  }
  return head;
}

/**
 * The text of the byte arrays decoded lately (uploaded files are never changed in place): as the
 * pieces it was decoded in until it is first read (`decodedText`). Joining a million rows' pieces
 * into one string held the event loop 0.2 s; a file an import's thread reads is never joined here.
 */
const DECODED = new WeakMap<Uint8Array, { fileName: string; text?: string; pieces?: readonly string[] }>();

/** The remembered text of `content`, its pieces joined now if they were not yet. */
function decodedText(fileName: string, content: Uint8Array): string | undefined {
  const decoded = DECODED.get(content);
  if (decoded === undefined || decoded.fileName !== fileName) return undefined;
  if (decoded.text === undefined && decoded.pieces !== undefined) {
    decoded.text = decoded.pieces.join('');
    delete decoded.pieces;
  }
  return decoded.text;
}

/** Bytes `decodeCsvHead` decodes of a file only checked (`CheckedCsvBytes`): lines of brokers' files are far shorter. */
const HEAD_BYTES = 64 * 1024;

/**
 * The beginning of the file's text as `decodeCsvText` gives it, at least its first `lines` lines where the
 * file has them (where a file's layout is told from). Of a file received in pieces, its first piece; of
 * one only checked (`CheckedCsvBytes`), its first bytes decoded: a large upload is not decoded whole,
 * or its pieces joined, on the thread that answers every other request just to read its header.
 * Otherwise the whole text.
 */
export function decodeCsvHead(fileName: string, content: Uint8Array | CheckedCsvBytes, lines: number): string {
  if (content instanceof CheckedCsvBytes) {
    const head = checkedHead(content.head);
    return hasLines(head, lines) ? head : content.text(fileName);
  }
  const decoded = DECODED.get(content);
  if (decoded?.fileName === fileName && decoded.text === undefined) {
    const head = decoded.pieces?.[0];
    if (head !== undefined && hasLines(head, lines)) return head;
  }
  return decodeCsvText(fileName, content);
}

/** The first bytes of a file `CsvTextChecker` passed (UTF-8 text), decoded and normalised as decoding does, to the last whole line. */
function checkedHead(content: Uint8Array): string {
  let end = Math.min(content.length, HEAD_BYTES);
  while (end > 0 && end < content.length && (content[end] & 0xc0) === 0x80) end -= 1;
  // The decoder drops a BOM at the start, and decoding one more after it.
  const text = new TextDecoder('utf-8').decode(content.subarray(0, end)).replace(/^\uFEFF/, '');
  // A CR cut from its LF is a line end either way.
  const normalised = withLfLineEnds(text);
  return normalised.slice(0, normalised.lastIndexOf('\n') + 1);
}

function hasLines(text: string, lines: number): boolean {
  let at = -1;
  for (let count = 0; count < lines; count += 1) {
    at = text.indexOf('\n', at + 1);
    if (at === -1) return false;
  }
  return true;
}

/**
 * Refuses `content` as `decodeCsvTextInTurns` would (empty, binary, not text), without making its
 * text one string where the receiver left it in pieces, nor decoding a file checked as it arrived
 * (`CheckedCsvBytes`: the precheck of an upload whose import runs on a thread of its own, which decodes it).
 */
export async function checkCsvTextInTurns(fileName: string, content: Uint8Array | CheckedCsvBytes, pause: () => Promise<void>, slice: number = DECODE_SLICE): Promise<void> {
  if (content instanceof CheckedCsvBytes || DECODED.get(content)?.fileName === fileName) return;
  await decodeCsvTextInTurns(fileName, content, pause, slice);
}

/** Lets the decoded text of `content` go (its last reader has it): it is not kept as long as the bytes are. */
export function forgetDecodedCsvText(content: CsvContent): void {
  if (content instanceof Uint8Array) DECODED.delete(content);
}

/** Decoded text checked and normalised (`normalising`) at once. */
function decodeText(fileName: string, decoded: string): string {
  return runSteps(normalising(fileName, [decoded][Symbol.iterator]())).join('');
}

/**
 * The decoded pieces, in order, as the text's pieces (`TextNormaliser`), all of them. Stops between pieces.
 */
function* normalising(fileName: string, pieces: Iterator<string>): Steps<string[]> {
  const normaliser = new TextNormaliser(fileName);
  const normalised: string[] = [];
  for (let next = pieces.next(); !next.done; ) {
    const piece = next.value;
    next = pieces.next();
    const last = next.done === true;
    normalised.push(normaliser.next(piece, last));
    if (!last) yield;
  }
  if (normalised.length === 0) throw ImportFileError.emptyFile(fileName);
  return normalised;
}

/**
 * A text's decoded pieces made its pieces, one after another: a BOM removed at its start and the old DOS
 * end-of-file mark at its end, refused for a control character (on its line) or when blank (at its last
 * piece), line ends normalised to LF (a CR that ends a piece is held for the next, where an LF may follow it).
 */
class TextNormaliser {
  /** Line ends in the pieces before this one (as the text is before it is normalised: what `lineOfOffset` counts). */
  private linesBefore = 0;
  private heldCr = '';
  private atStart = true;
  private blank = true;

  constructor(
    private readonly fileName: string,
    /**
     * Whether the text's bytes passed `CsvTextChecker`, which refuses a control byte (one in the text
     * is one in its UTF-8 bytes): the text is then not searched for one again (about 2 ms a
     * megabyte, 0.4 s of a million rows' reading on their thread).
     */
    private readonly checked = false,
  ) {}

  /** The next piece of the text (`last`: its last piece). */
  next(decoded: string, last: boolean): string {
    let piece = decoded;
    if (this.atStart && piece !== '') {
      piece = piece.replace(/^\uFEFF/, '');
      this.atStart = false;
    }
    if (last && piece.endsWith('\u001a')) piece = piece.slice(0, -1); // the old DOS end-of-file mark
    const control = this.checked ? -1 : firstControlCharacter(piece);
    if (control !== -1) {
      throw ImportFileError.binaryContent(this.fileName, this.linesBefore + lineOfOffset(piece, control));
    }
    let text = this.heldCr + piece;
    this.heldCr = !last && text.endsWith('\r') ? '\r' : '';
    if (this.heldCr !== '') text = text.slice(0, -1);
    if (this.blank && /\S/.test(text)) this.blank = false;
    if (last && this.blank) throw ImportFileError.emptyFile(this.fileName);
    if (!last && !this.checked) this.linesBefore += lineOfOffset(piece, piece.length) - 1;
    return text.includes('\r') ? withLfLineEnds(text) : text;
  }
}

/**
 * `text` with each CRLF and each lone CR made an LF, as one flat string. The same text from
 * `replace(/\r\n?/g, '\n')` is a rope of a part a line, copied whole when first searched: reading a
 * CRLF file's records took half as long again as reading the same file with LF line ends.
 */
function withLfLineEnds(text: string): string {
  const joined = text.split('\r\n').join('\n');
  return joined.includes('\r') ? joined.replace(/\r/g, '\n') : joined;
}

/** Bytes that are not UTF-8 (`utf8Slices`). */
class NotUtf8 extends Error {}

/** UTF-8 bytes decoded `slice` bytes at a time, each slice to a character's end (`Utf8PieceDecoder`). */
function* utf8Slices(content: Uint8Array, slice: number): Generator<string> {
  const decoder = new Utf8PieceDecoder();
  for (let start = 0; start < content.length; ) {
    const end = characterStart(content, start + slice);
    let piece: string;
    try {
      piece = decoder.decode(content.subarray(start, end));
    } catch {
      throw new NotUtf8();
    }
    start = end;
    yield piece;
  }
}

/**
 * UTF-8 bytes decoded a piece at a time, each piece cut between two characters and decoded on its
 * own: a streaming decoder gives two bytes a character even for ASCII, twice the memory for the text
 * every row is read from. A BOM is dropped at the start of the first piece only; bytes that are not
 * UTF-8 throw (TypeError).
 */
class Utf8PieceDecoder {
  private readonly first = new TextDecoder('utf-8', { fatal: true });
  private readonly rest = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private started = false;

  decode(bytes: Uint8Array): string {
    const decoder = this.started ? this.rest : this.first;
    this.started = true;
    return decoder.decode(bytes);
  }
}

/** Where the first character at or after `at` starts: `at` moved past continuation bytes (the end of `bytes` at most). */
function characterStart(bytes: Uint8Array, at: number): number {
  let end = Math.min(bytes.length, at);
  while (end < bytes.length && (bytes[end] & 0xc0) === 0x80) end += 1;
  return end;
}

function decodeBytes(fileName: string, bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return new TextDecoder('utf-16le').decode(bytes);
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    return new TextDecoder('utf-16be').decode(bytes);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Not UTF-8: a spreadsheet saved as "ANSI" is still text; anything with control bytes is not.
    if (bytes.some((byte) => byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d)) {
      throw ImportFileError.binaryContent(fileName);
    }
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/**
 * Splits LF-normalised text into records with papaparse (quotes, doubled quotes, separators inside
 * quotes). Blank lines are dropped. A record starts one line after the previous one plus the line
 * breaks quoted inside it. An unterminated or misplaced quote is a malformed-CSV error on the line
 * where the broken record starts.
 */
export function readCsvRows(fileName: string, text: string, delimiter: string): CsvRow[] {
  const { rows, error } = splitCsvText(fileName, text, delimiter);
  if (error !== null) throw error;
  return rows;
}

/** `readCsvRows` without throwing: the records before the first malformed one, and its error. */
function splitCsvText(fileName: string, text: string, delimiter: string, firstLine = 1): { rows: CsvRow[]; error: ImportFileError | null } {
  const parsed = Papa.parse<string[]>(text, papaConfig(delimiter));
  const firstError = parsed.errors.reduce<Papa.ParseError | null>(
    (first, error) => (first === null || (error.row ?? Infinity) < (first.row ?? Infinity) ? error : first),
    null,
  );
  const rows: CsvRow[] = [];
  const line = collectRecords(parsed.data, firstLine, rows, firstError === null ? parsed.data.length : Math.min(firstError.row ?? 0, parsed.data.length));
  return { rows, error: firstError === null ? null : ImportFileError.malformedCsv(fileName, line, describeError(firstError)) };
}

/** How papaparse reads LF-normalised text: double quotes, doubled inside quoted cells; blank lines kept (they count as lines). */
function papaConfig(delimiter: string): Papa.ParseConfig<string[]> {
  return { delimiter, newline: '\n', quoteChar: '"', escapeChar: '"', skipEmptyLines: false };
}

/** Characters of text split into records at a time by `streamCsvRows` (a few thousand rows). */
const STREAM_SLICE = 256 * 1024;

/**
 * The records of `text` as `readCsvRows` gives them, split a slice of text at a time as they are
 * taken, so the cells of the records already taken can go while the rest is read. The text may be
 * given as its pieces (`decodeCsvPieces`; taken from the front as they are read): a piece is let go
 * of once its records are taken, and the whole text is never one string. A slice is read as papaparse
 * reads a stream: its last, maybe cut, record is left for the next slice (a slice of plain lines, as
 * brokers write them, is split without papaparse, to the same records: `splitPlainRecords`). A slice
 * that does not read cleanly (a malformed quote, or one that only the rest of the text would make
 * good) hands over to reading the rest of the text at once, from the record after those given. A
 * malformed record is thrown when it is reached, after the records before it, so the first problem of
 * a file in file order is the one reported, whether it is in the CSV or in a row's content, however
 * the text was sliced.
 */
export function streamCsvRows(fileName: string, text: string | TextPieces, delimiter: string, slice: number = STREAM_SLICE): CsvRecords {
  return new CsvRecordStream(fileName, typeof text === 'string' ? [text] : text, delimiter, slice);
}

/** Records taken from one text: `entries` and iterating go on where the last taking stopped (breaking off a loop does not end it). */
class CsvRecordStream implements CsvRecords {
  /** The records of the slice being taken, and how many of them are taken. */
  private rows: CsvRow[] = [];
  private taken = 0;
  /** The text in hand: what was not read of the pieces taken so far (`nextText`, `fill`). */
  private text = '';
  /** The remainder of a piece whose head was joined to the text in hand (`nextText`), taken before `pieces`. */
  private ahead: string | undefined;
  /** Where the next slice starts in `text`, and its first line. */
  private start = 0;
  private line = 1;
  /** The malformed record the reading of the rest at once stopped at, thrown once the records before it are taken. */
  private malformed: ImportFileError | null = null;

  constructor(
    private readonly fileName: string,
    /** The pieces of the text not yet in hand, taken from the front. */
    private readonly pieces: TextPieces,
    private readonly delimiter: string,
    private readonly slice: number,
  ) {}

  [Symbol.iterator](): Iterator<CsvRow> {
    return this.iterate((row) => row);
  }

  entries(): IterableIterator<[number, CsvRow]> {
    let index = 0;
    return this.iterate((row): [number, CsvRow] => [index++, row]);
  }

  private iterate<T>(value: (row: CsvRow) => T): IterableIterator<T> {
    const iterator: IterableIterator<T> = {
      next: () => {
        const row = this.take();
        return row === undefined ? { done: true, value: undefined } : { done: false, value: value(row) };
      },
      [Symbol.iterator]: () => iterator,
    };
    return iterator;
  }

  private take(): CsvRow | undefined {
    while (this.taken === this.rows.length) {
      if (this.malformed !== null) throw this.malformed;
      this.nextText();
      if (this.start >= this.text.length) return undefined;
      this.readSlice();
    }
    return this.rows[this.taken++];
  }

  /**
   * Takes pieces into hand until the text in hand holds a line end after `start`, or every piece is
   * taken. A piece is taken as it is when the text in hand is all read; else only its head, to its
   * first line end, is joined to the unread rest (the cut line the last slice left) and its remainder
   * comes next, as it is. The rest joined to a whole piece was a new string of the piece's length,
   * made when it was first searched: a file's size of large strings more for each import.
   */
  private nextText(): void {
    while (this.piecesLeft() && this.text.indexOf('\n', this.start) === -1) {
      const piece = this.nextPiece();
      const head = piece.indexOf('\n') + 1;
      if (this.start >= this.text.length) {
        this.text = piece;
      } else if (head === 0) {
        this.text = this.text.slice(this.start) + piece;
      } else {
        this.text = this.text.slice(this.start) + piece.slice(0, head);
        if (head < piece.length) this.ahead = piece.slice(head);
      }
      this.start = 0;
    }
  }

  /**
   * Takes pieces into hand until `size` characters from `start` are, or every piece is: the text in
   * hand is then its unread rest and those pieces (the text read before goes, unless cells of rows
   * still alive are slices of it). For a record longer than the text in hand, and the rest read at once.
   */
  private fill(size: number): void {
    while (this.piecesLeft() && this.text.length - this.start < size) {
      this.text = this.text.slice(this.start) + this.nextPiece();
      this.start = 0;
    }
  }

  private piecesLeft(): boolean {
    return this.ahead !== undefined || this.pieces.length > 0;
  }

  /** The piece that comes next: the remainder of the one whose head was taken (`nextText`), or the next of `pieces`. */
  private nextPiece(): string {
    const piece = this.ahead ?? (this.pieces.shift() as string);
    this.ahead = undefined;
    return piece;
  }

  private readSlice(): void {
    this.rows = [];
    this.taken = 0;
    for (let size = this.slice; ; size *= 2) {
      // A slice is read from the text in hand (`nextText`); more is taken only for a record longer than it.
      if (size > this.slice) this.fill(size);
      const end = Math.min(this.text.length, this.start + size);
      const last = end === this.text.length && !this.piecesLeft();
      const plain = splitPlainRecords(this.text, this.start, end, last, this.delimiter, this.line);
      if (plain !== null) {
        this.rows = plain.rows;
        this.line = plain.line;
        this.start = plain.cursor;
        return;
      }
      const parser = new Papa.Parser(papaConfig(this.delimiter));
      const parsed = parser.parse(this.text.slice(this.start, end), this.start, !last) as Papa.ParseResult<string[]>;
      if (parsed.errors.length > 0) {
        // A record ends where the next slice starts: the rest reads from there as the whole text does.
        this.fill(Infinity);
        const rest = splitCsvText(this.fileName, this.text.slice(this.start), this.delimiter, this.line);
        this.rows = rest.rows;
        this.malformed = rest.error;
        this.text = '';
        this.start = 0;
        return;
      }
      // A slice within one long record holds no whole record: a larger one is read.
      if (!last && parsed.meta.cursor === this.start) continue;
      this.line = collectRecords(parsed.data, this.line, this.rows);
      this.start = last ? this.text.length : parsed.meta.cursor;
      return;
    }
  }
}

/**
 * The records of `text` from `start` to the last line end before `end` (to `end` in the `last` slice),
 * split without papaparse when every line is plain: its cells either unquoted without any quote, or
 * quoted without quotes or line breaks inside and followed at once by the delimiter or the line's end.
 * Such a line reads the same either way, and brokers' exports are made of them (Schwab quotes every
 * cell); reading them here takes a third of papaparse's time. Null when a line is not plain (a doubled
 * quote, a quoted line break, a quote inside an unquoted cell, characters after a closing quote): the
 * slice is then papaparse's. The first line is `line`; blank lines are left out, as `collectRecords`
 * leaves them; `line` in the result is the line after the slice's, `cursor` where the next slice starts.
 */
export function splitPlainRecords(
  text: string,
  start: number,
  end: number,
  last: boolean,
  delimiter: string,
  line: number = 1,
): { rows: PlainRecord[]; line: number; cursor: number } | null {
  const stop = last ? end : text.lastIndexOf('\n', end - 1) + 1;
  if (stop <= start) return null;
  const separator = delimiter.charCodeAt(0);
  const rows: PlainRecord[] = [];
  // Where each cell starts and ends, two numbers a cell, for the slice's records together (PlainRecord).
  let bounds = new Int32Array(Math.max(64, (stop - start) >> 2));
  let used = 0;
  let next = line;
  // The next quote at or after where the reading is (an unquoted cell must not hold one): found once, not per cell.
  let quote = text.indexOf('"', start);
  let at = start;
  while (at < stop) {
    let lineEnd = text.indexOf('\n', at);
    if (lineEnd === -1 || lineEnd > stop) lineEnd = stop;
    const first = used;
    let quoted = delimiter === ',';
    let blank = true;
    for (let cell = at; ; ) {
      let cellStart: number;
      let cellEnd: number;
      let after: number;
      if (cell === quote && cell < lineEnd) {
        const close = text.indexOf('"', cell + 1);
        if (close === -1 || close >= lineEnd) return null;
        after = close + 1;
        if (after !== lineEnd && text.charCodeAt(after) !== separator) return null;
        cellStart = cell + 1;
        cellEnd = close;
        quote = text.indexOf('"', after);
      } else {
        after = text.indexOf(delimiter, cell);
        if (after === -1 || after > lineEnd) after = lineEnd;
        if (quote !== -1 && quote < after) return null;
        cellStart = cell;
        cellEnd = after;
        quoted = false;
      }
      if (used + 2 > bounds.length) {
        const grown = new Int32Array(2 * bounds.length);
        grown.set(bounds);
        bounds = grown;
      }
      bounds[used++] = cellStart;
      bounds[used++] = cellEnd;
      if (blank && !isBlankBetween(text, cellStart, cellEnd)) blank = false;
      if (after === lineEnd) break;
      cell = after + 1;
    }
    if (blank) used = first;
    else rows.push(new PlainRecord(next, quoted ? cellsAsJson(text.slice(at, lineEnd)) : undefined, text, bounds, first, (used - first) >> 1));
    next += 1;
    at = lineEnd + 1;
  }
  // A last slice ending in a line break holds no record after it (papaparse reads a blank one there).
  return { rows, line: next, cursor: stop };
}

/**
 * A record of one plain line (`splitPlainRecords`): its cells are cut from the text only as they are
 * read (`cellOf`). A lot details row has 25 cells, of which an import reads 14: cutting every cell,
 * and an array of them, was a tenth of what a 100,000-row import allocated. `cells` makes them all,
 * once, for the readings that want the array.
 */
export class PlainRecord implements CsvRow {
  readonly #text: string;
  /**
   * Where the slice's cells start and end (`splitPlainRecords`), this record's from `#first`, two
   * numbers a cell (the records made before the array last grew hold its smaller copy).
   */
  readonly #bounds: Int32Array;
  readonly #first: number;
  readonly #width: number;
  #cells: readonly string[] | undefined;

  constructor(
    readonly line: number,
    readonly json: string | undefined,
    text: string,
    bounds: Int32Array,
    first: number,
    width: number,
  ) {
    this.#text = text;
    this.#bounds = bounds;
    this.#first = first;
    this.#width = width;
  }

  get width(): number {
    return this.#width;
  }

  get cells(): readonly string[] {
    if (this.#cells === undefined) {
      const cells: string[] = [];
      for (let index = 0; index < this.#width; index += 1) cells.push(this.cell(index) as string);
      this.#cells = cells;
    }
    return this.#cells;
  }

  /** The cell at `index`, or undefined past the last. */
  cell(index: number): string | undefined {
    if (index >= this.#width) return undefined;
    const at = this.#first + 2 * index;
    return this.#text.slice(this.#bounds[at], this.#bounds[at + 1]);
  }
}

/** The cell of `row` at `index` (undefined past its last), without making the others (`PlainRecord`). */
export function cellOf(row: CsvRow, index: number): string | undefined {
  return row instanceof PlainRecord ? row.cell(index) : row.cells[index];
}

/** How many cells `row` has. */
export function widthOf(row: CsvRow): number {
  return row instanceof PlainRecord ? row.width : row.cells.length;
}

/** True when `text` from `start` to `end` is empty or white space only (as `trim` takes it). */
function isBlankBetween(text: string, start: number, end: number): boolean {
  for (let at = start; at < end; at += 1) {
    const code = text.charCodeAt(at);
    if (code === 32 || (code >= 9 && code <= 13)) continue;
    return code < 128 ? false : text.slice(start, end).trim() === '';
  }
  return true;
}

/**
 * A line of quoted cells as the JSON array of those cells: itself in brackets, unless it holds what
 * JSON escapes (no quote can be inside a plain cell, `\n` ends the line, and decoding refuses the
 * other control characters but tab and turns CR into line ends; a CR is checked all the same, for text
 * read without that decoding) — then undefined.
 */
function cellsAsJson(line: string): string | undefined {
  return line.includes('\\') || line.includes('\t') || line.includes('\r') ? undefined : `[${line}]`;
}

/**
 * Appends the records of `data` before `until` to `rows`, blank ones dropped, the first starting on
 * `line`; a record starts one line after the previous one plus the line breaks quoted inside it.
 * Returns the line of the record at `until`.
 */
function collectRecords(data: readonly string[][], line: number, rows: CsvRow[], until: number = data.length): number {
  let next = line;
  for (let index = 0; index < until; index += 1) {
    const cells = data[index];
    let blank = true;
    let breaks = 0;
    for (const cell of cells) {
      if (blank && cell.trim() !== '') {
        blank = false;
      }
      for (let at = cell.indexOf('\n'); at !== -1; at = cell.indexOf('\n', at + 1)) {
        breaks += 1;
      }
    }
    if (!blank) {
      rows.push({ line: next, cells, json: undefined });
    }
    next += 1 + breaks;
  }
  return next;
}

function describeError(error: Papa.ParseError): string {
  switch (error.code) {
    case 'MissingQuotes':
      return 'unexpected end of data';
    case 'InvalidQuotes':
      return 'a quoted field is followed by other characters';
    default:
      return error.message.toLowerCase();
  }
}
