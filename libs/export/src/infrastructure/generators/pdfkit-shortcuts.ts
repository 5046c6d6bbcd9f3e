import { createRequire } from 'node:module';

/**
 * Three steps pdfkit takes for every cell of a table that pdfmake lays out, replaced by quicker ones
 * that give the same results. A 5,000-trade month is 55,000 cells, each measured and then written:
 * - a standard face's kerning looks each pair of glyphs up by a string made for the lookup
 *   (`left + '\0' + right`), twice per cell (its width, then its text);
 * - a colour given by name or `#rrggbb` is parsed each time pdfmake resolves it or pdfkit sets it;
 * - each drawing operator of a page is made a `Buffer` of its own, and the page's are joined at the end.
 * They are a third of the CPU of rendering that month (docs/operations.md "PDF exports").
 *
 * Applied to the copy of pdfkit that pdfmake loads, and only to the version they were checked against
 * (`SHORTCUTS_FOR`): under another version pdfkit runs as it is, as correct and slower, and
 * `pdfkit-shortcuts.spec.ts` fails until they are checked against it (it renders documents with and
 * without them and compares the bytes).
 */
export const SHORTCUTS_FOR = '0.19.1';

/** Where a page's operators wait as text, flushed as one `Buffer` (64 KB at most, or before bytes or the end). */
const PENDING_TEXT_LIMIT = 1 << 16;

/** pdfkit's classes, reached through a throwaway document: pdfkit exports its document class only. */
interface PdfkitDocument {
  _font: { font: object };
  font(name: string): PdfkitDocument;
  ref(): object;
}
type PdfkitDocumentClass = new (options: object) => PdfkitDocument;

interface AfmFont {
  kernPairs: Record<string, number>;
  /** `kernPairs` by the left glyph, then the right (`kernPairBy`). */
  kernTable?: Map<string, Map<string, number>>;
}

interface PdfReference {
  /** The operators written since the last flush (`flushPendingText`). */
  pendingText?: string;
}

type Method = (this: never, ...args: never[]) => unknown;
type Write = (this: PdfReference, chunk: unknown) => void;

/** A class's method and what takes its place. */
interface Replacement {
  owner: Record<string, Method>;
  name: string;
  original: Method;
  quicker: Method;
}

const requireFromPdfmake = createRequire(createRequire(import.meta.url).resolve('pdfmake'));
const version = (requireFromPdfmake('pdfkit/package.json') as { version: string }).version;
const replacements = version === SHORTCUTS_FOR ? pdfkitReplacements() : [];

/** The shortcuts, on from the start where pdfkit is the version they were checked against. */
export const pdfkitShortcuts = {
  version,
  /** Puts pdfkit's own steps back (the spec compares documents rendered both ways). */
  off(): void {
    for (const { owner, name, original } of replacements) owner[name] = original;
  },
  on(): void {
    for (const { owner, name, quicker } of replacements) owner[name] = quicker;
  },
  /** Whether pdfkit takes the shortcuts now. */
  get active(): boolean {
    return replacements.length > 0 && replacements.every(({ owner, name, quicker }) => owner[name] === quicker);
  },
  /** A replaced step as pdfkit has it, to check its shortcut against. */
  original(name: string): Method {
    const found = replacements.find((replacement) => replacement.name === name);
    if (found === undefined) throw new Error(`no pdfkit shortcut for ${name}`);
    return found.original;
  },
};
pdfkitShortcuts.on();

function pdfkitReplacements(): Replacement[] {
  const PDFDocument = requireFromPdfmake('pdfkit') as PdfkitDocumentClass;
  const sample = new PDFDocument({ autoFirstPage: false }).font('Helvetica');
  const fontClass = Object.getPrototypeOf(sample._font.font) as Record<string, Method>;
  const documentClass = PDFDocument.prototype as unknown as Record<string, Method>;
  const referenceClass = Object.getPrototypeOf(sample.ref()) as Record<string, Method>;
  const write = referenceClass.write as unknown as Write;
  return [
    replacing(fontClass, 'getKernPair', kernPairBy),
    replacing(documentClass, '_normalizeColor', colourOnce),
    replacing(referenceClass, 'write', () => operatorsWriter(write)),
    replacing(referenceClass, 'finalize', (finalize) => finalizerFlushing(write, finalize as unknown as (this: PdfReference) => void)),
  ];
}

function replacing(owner: Record<string, Method>, name: string, quicker: (original: Method) => Method): Replacement {
  const original = owner[name];
  if (typeof original !== 'function') throw new Error(`pdfkit has no ${name} to shorten`);
  return { owner, name, original, quicker: quicker(original) };
}

/** A reference's `write`: operators (text) gathered, bytes written as they come, in order. */
function operatorsWriter(write: Write): Method {
  return function (this: PdfReference, chunk: unknown): void {
    if (chunk instanceof Uint8Array) {
      flushPendingText(this, write);
      write.call(this, chunk);
      return;
    }
    // As pdfkit's own write: the operator and a line break, each character one byte (`binary`).
    this.pendingText = this.pendingText === undefined ? `${String(chunk)}\n` : `${this.pendingText}${String(chunk)}\n`;
    if (this.pendingText.length >= PENDING_TEXT_LIMIT) flushPendingText(this, write);
  } as Method;
}

/** A reference's `finalize`, which writes out its stream: the operators gathered go first. */
function finalizerFlushing(write: Write, finalize: (this: PdfReference) => void): Method {
  return function (this: PdfReference): void {
    flushPendingText(this, write);
    finalize.call(this);
  } as Method;
}

function flushPendingText(reference: PdfReference, write: Write): void {
  const text = reference.pendingText;
  if (text === undefined) return;
  reference.pendingText = undefined;
  write.call(reference, Buffer.from(text, 'binary'));
}

/**
 * A face's kerning by the two glyphs' names in a map of maps, made on the face's first lookup (pdfkit
 * reads a standard face's metrics anew for each document).
 */
function kernPairBy(): Method {
  return function (this: AfmFont, left: string, right: string | undefined): number {
    const table = (this.kernTable ??= pairTable(this.kernPairs));
    // pdfkit's own: `this.kernPairs[left + '\0' + right] || 0` (the last glyph's right is undefined).
    return (right === undefined ? undefined : table.get(left)?.get(right)) || 0;
  } as Method;
}

function pairTable(kernPairs: Record<string, number>): Map<string, Map<string, number>> {
  const table = new Map<string, Map<string, number>>();
  for (const [pair, kern] of Object.entries(kernPairs)) {
    const [left, right] = pair.split('\0');
    let rights = table.get(left);
    if (rights === undefined) table.set(left, (rights = new Map()));
    rights.set(right, kern);
  }
  return table;
}

/**
 * A colour's components, parsed once for each distinct text: a name or `#rgb`/`#rrggbb` always means
 * the same components, so those are kept (a copy handed out each time, as pdfkit made a new array);
 * anything else (arrays, spot colours, patterns, unknown names) goes to pdfkit each time.
 */
function colourOnce(original: Method): Method {
  const parse = original as (this: unknown, color: unknown) => unknown;
  const parsed = new Map<string, number[]>();
  return function (this: unknown, color: unknown): unknown {
    if (typeof color !== 'string') return parse.call(this, color);
    const known = parsed.get(color);
    if (known !== undefined) return known.slice();
    const components = parse.call(this, color);
    if (Array.isArray(components) && components.every((part) => typeof part === 'number') && parsed.size < 1_000) {
      parsed.set(color, components.slice() as number[]);
    }
    return components;
  } as Method;
}
