import Papa from 'papaparse';
import { ImportFileError } from '../import.errors.js';

/** One CSV record with the physical line it starts on (1-based; a BOM is not a line). */
export interface CsvRow {
  readonly line: number;
  readonly cells: readonly string[];
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
export function decodeCsvText(fileName: string, content: Uint8Array | string): string {
  if (typeof content === 'string') return decodeText(fileName, content);
  // An upload's file is read more than once (the precheck, which file is which, the parse): decoded once.
  const decoded = DECODED.get(content);
  if (decoded !== undefined && decoded.fileName === fileName) return decoded.text;
  if (content.length === 0) {
    throw ImportFileError.emptyFile(fileName);
  }
  const text = decodeText(fileName, decodeBytes(fileName, content));
  DECODED.set(content, { fileName, text });
  return text;
}

/** The text of the byte arrays decoded lately (uploaded files are never changed in place). */
const DECODED = new WeakMap<Uint8Array, { fileName: string; text: string }>();

/** Lets the decoded text of `content` go (its last reader has it): it is not kept as long as the bytes are. */
export function forgetDecodedCsvText(content: Uint8Array): void {
  DECODED.delete(content);
}

function decodeText(fileName: string, decoded: string): string {
  let text = decoded.replace(/^\uFEFF/, '');
  if (text.endsWith('\u001a')) {
    text = text.slice(0, -1); // the old DOS end-of-file mark
  }
  const control = firstControlCharacter(text);
  if (control !== -1) {
    throw ImportFileError.binaryContent(fileName, lineOfOffset(text, control));
  }
  if (!/\S/.test(text)) {
    throw ImportFileError.emptyFile(fileName);
  }
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
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
  const parsed = Papa.parse<string[]>(text, {
    delimiter,
    newline: '\n',
    quoteChar: '"',
    escapeChar: '"',
    skipEmptyLines: false,
  });
  const firstError = parsed.errors.reduce<Papa.ParseError | null>(
    (first, error) => (first === null || (error.row ?? Infinity) < (first.row ?? Infinity) ? error : first),
    null,
  );
  const rows: CsvRow[] = [];
  let line = 1;
  for (const [index, cells] of parsed.data.entries()) {
    if (firstError && index === (firstError.row ?? 0)) {
      throw ImportFileError.malformedCsv(fileName, line, describeError(firstError));
    }
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
      rows.push({ line, cells });
    }
    line += 1 + breaks;
  }
  if (firstError) {
    throw ImportFileError.malformedCsv(fileName, line, describeError(firstError));
  }
  return rows;
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
