import { basename } from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { PayloadTooLargeError, ServiceBusyError, TooManyRequestsError, ValidationError } from '../errors/domain.errors.js';
import { turnIfDue } from '../runtime/event-loop-turns.js';

/** An uploaded file: its bytes, or what its receiver made of them where it kept them (`FileReceiver.whole`, of type `K`). */
export interface UploadedFile<K = never> {
  field: string;
  /** The file's own name, never a client path (`C:\fakepath\x.csv` → `x.csv`), at most 255 characters. */
  name: string;
  content: Buffer | K;
}

/** Room for the multipart framing and part headers around the files themselves. */
const FRAMING_BYTES = 64 * 1024;

/**
 * Bounds the memory that uploads being received and imported hold, in this process (memory is
 * per process, so the count is too): per user at most two files of the largest size at once (429
 * past it), and in all at most four (503). An upload reserves its declared length (the largest it
 * may be when the client does not declare one) until its request has ended.
 */
export class UploadBudget {
  private readonly perUser = new Map<number, number>();
  private total = 0;

  constructor(private readonly maxFileBytes: number) {}

  /** Reserves room for one request's body; the returned function gives it back (once). */
  reserve(userId: number, request: FastifyRequest, fields: number): () => void {
    const largest = fields * this.maxFileBytes + FRAMING_BYTES;
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > largest) {
      throw new PayloadTooLargeError(`The upload is larger than the limit of ${formatLimit(this.maxFileBytes)} per file`);
    }
    const bytes = Number.isFinite(declared) && declared > 0 ? declared : largest;
    const mine = this.perUser.get(userId) ?? 0;
    if (mine > 0 && mine + bytes > 2 * this.maxFileBytes + FRAMING_BYTES) {
      throw new TooManyRequestsError('Another upload of yours is still being received or imported; try again when it has finished');
    }
    if (this.total > 0 && this.total + bytes > 4 * this.maxFileBytes + FRAMING_BYTES) {
      throw new ServiceBusyError('The service is receiving too many uploads right now; try again in a minute');
    }
    this.perUser.set(userId, mine + bytes);
    this.total += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= bytes;
      const left = (this.perUser.get(userId) ?? bytes) - bytes;
      if (left > 0) this.perUser.set(userId, left);
      else this.perUser.delete(userId);
    };
  }

  /** Bytes reserved now (for tests and the logs). */
  get reservedBytes(): number {
    return this.total;
  }
}

export interface UploadRules<K = never> {
  /** The file fields the endpoint takes; any other part is refused before it is read. */
  fields: readonly string[];
  /** Per file. */
  maxBytes: number;
  /** What to say when the request is not multipart at all. */
  notMultipart: string;
  /** Work on each file while its bytes arrive (given the file's name; none for undefined), so less is left once the last has come. */
  receiver?: (name: string) => FileReceiver<K> | undefined;
}

/**
 * Takes a file's bytes as they arrive (`add`, chunk by chunk), then the whole file (`end`); never
 * throws. A receiver with `whole` keeps the bytes itself (copied as they arrive): the chunks are then
 * neither kept nor joined here, and the file's content is what `whole` answers once the file has
 * arrived (`end` is not called). A large upload's files were otherwise held twice for a moment, as
 * their chunks and joined, and once more where the receiver kept them.
 */
export interface FileReceiver<K = never> {
  add(chunk: Uint8Array): void;
  end?(content: Uint8Array): unknown;
  whole?(): Buffer | K;
}

/**
 * Reads the file parts an upload endpoint takes into memory (each bounded by `maxBytes`; nothing
 * touches the disk). A part the endpoint does not take, a second file in one field, more parts than
 * the endpoint takes and a body that is not well-formed multipart are refused with a message that
 * says which; a missing field is for the caller to judge.
 */
export async function readUploadedFiles<K = never>(request: FastifyRequest, rules: UploadRules<K>): Promise<Map<string, UploadedFile<K>>> {
  const files = new Map<string, UploadedFile<K>>();
  for (const file of await readParts(request, rules, rules.fields.length)) {
    if (files.has(file.field)) throw new ValidationError(`Send one file in ${file.field}, not several`);
    files.set(file.field, file);
  }
  return files;
}

/** Longest text a form field of an upload takes (an account number, a name). */
const MAX_TEXT_FIELD = 200;

/**
 * The files of an upload that takes up to `maxFiles` files in its one field (`rules.fields[0]`), in the
 * order sent, and the short text fields it takes (`textFields`, each at most once); bounded and
 * refused as `readUploadedFiles` does.
 */
export async function readUploadedFileList<K = never>(
  request: FastifyRequest,
  rules: UploadRules<K> & { maxFiles: number; textFields?: readonly string[] },
): Promise<{ files: UploadedFile<K>[]; text: ReadonlyMap<string, string> }> {
  const text = new Map<string, string>();
  const files = await readParts(request, rules, rules.maxFiles, text);
  return { files, text };
}

type PartRules<K = never> = UploadRules<K> & { maxFiles?: number; textFields?: readonly string[] };

async function readParts<K>(request: FastifyRequest, rules: PartRules<K>, allowed: number, text?: Map<string, string>): Promise<UploadedFile<K>[]> {
  if (typeof request.isMultipart !== 'function' || !request.isMultipart()) throw new ValidationError(rules.notMultipart);
  const files: UploadedFile<K>[] = [];
  const textFields = rules.textFields ?? [];
  try {
    const limits = { fileSize: rules.maxBytes, files: allowed, parts: allowed + textFields.length, fields: textFields.length, fieldSize: MAX_TEXT_FIELD };
    for await (const part of request.parts({ limits })) {
      if (part.type === 'field' && textFields.includes(part.fieldname) && text !== undefined) {
        if (text.has(part.fieldname)) throw new ValidationError(`Send ${part.fieldname} once, not several times`);
        if (part.valueTruncated) throw new ValidationError(`${part.fieldname} is longer than ${MAX_TEXT_FIELD} characters`);
        text.set(part.fieldname, String(part.value));
        continue;
      }
      if (part.type !== 'file' || !rules.fields.includes(part.fieldname)) {
        throw new ValidationError(`Unexpected part '${printable(part.fieldname)}': this upload takes ${describeFields(rules)}`);
      }
      const name = displayName(part.filename);
      files.push({ field: part.fieldname, name, content: await readWhole(part, rules.maxBytes, rules.receiver?.(name)) });
    }
  } catch (error) {
    throw refusal(error, rules);
  }
  return files;
}

/**
 * A file part's bytes, handed to `receiver` as they arrive. Not the plugin's `toBuffer`, which keeps the
 * buffer on the part, and the plugin keeps its parts until the request closes: the files then outlived
 * the import that let go of them (22 MB of a 100,000-row one). The receiver's work and the joining of
 * the chunks give the event loop a turn when due: the chunks of a large upload are there faster than
 * they are decoded, and a million-row upload's 142 MB file took the loop 0.2 s to join at once.
 */
async function readWhole<K>(part: MultipartFile, maxBytes: number, receiver: FileReceiver<K> | undefined): Promise<Buffer | K> {
  const chunks: Buffer[] = [];
  const keeps = receiver?.whole !== undefined;
  let length = 0;
  for await (const chunk of part.file) {
    if (!keeps) chunks.push(chunk as Buffer);
    length += (chunk as Buffer).length;
    if (receiver !== undefined) {
      receiver.add(chunk as Buffer);
      await turnIfDue();
    }
  }
  if (part.file.truncated) throw fileTooLarge(displayName(part.filename), maxBytes);
  if (receiver?.whole !== undefined) return receiver.whole();
  const content = await joinedInTurns(chunks, length);
  receiver?.end?.(content);
  return content;
}

/** `Buffer.concat`, a turn of the event loop given when due between the chunks. */
async function joinedInTurns(chunks: Buffer[], length: number): Promise<Buffer> {
  if (chunks.length === 1) return chunks[0];
  const joined = Buffer.allocUnsafe(length);
  let at = 0;
  for (let index = 0; index < chunks.length; index += 1) {
    at += chunks[index].copy(joined, at);
    chunks[index] = EMPTY; // copied: let go at once
    await turnIfDue();
  }
  return joined;
}

const EMPTY = Buffer.alloc(0);

function fileTooLarge(name: string, maxBytes: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`${name} is larger than the limit of ${formatLimit(maxBytes)} per file`);
}

/** The multipart plugin's and the form parser's errors, as the refusal a person can act on. */
function refusal(error: unknown, rules: PartRules<unknown>): unknown {
  const { maxBytes } = rules;
  if (error instanceof ValidationError || error instanceof PayloadTooLargeError) return error;
  const code = codeOf(error);
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    // Reported by the file's own read or, when the request ends first, by the parts' iteration;
    // either way the error names its part.
    const part = (error as { part?: { filename?: string } }).part;
    return fileTooLarge(part === undefined ? 'A file' : displayName(part.filename), maxBytes);
  }
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new ValidationError(`Too many parts: this upload takes ${describeFields(rules)}`);
  }
  const message = error instanceof Error ? error.message : '';
  // Busboy: "Multipart: Boundary not found", "Unexpected end of form", "Malformed part header"…
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_PROTO_VIOLATION' || /multipart|boundary|unexpected end|malformed|part header/i.test(message)) {
    return new ValidationError(`The upload is not a complete multipart/form-data body (${message.replace(/^Multipart: /, '')})`);
  }
  return error;
}

function describeFields({ fields, maxFiles, textFields = [] }: PartRules<unknown>): string {
  const also = textFields.length === 0 ? '' : ` (and ${textFields.join(', ')})`;
  if (maxFiles !== undefined && maxFiles > 1) return `up to ${maxFiles} files named ${fields[0]}${also}`;
  return fields.length === 1 ? `one file named ${fields[0]}` : `one file each in ${fields.join(' and ')}`;
}

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

/** A client-chosen field name, safe to echo: printable, bounded. */
function printable(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 60);
}

function displayName(filename: string | undefined): string {
  const name = basename((filename ?? '').replace(/\\/g, '/')).trim();
  return (name === '' ? 'unnamed file' : name).slice(0, 255);
}

function formatLimit(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MB` : `${bytes} bytes`;
}

/** An uploaded text file's content: UTF-8 (with or without BOM), else Windows-1252 as spreadsheets save; binary content is refused. */
export function decodeUploadedText(content: Buffer, field: string): string {
  if (content.includes(0)) throw new ValidationError(`${field} must be a CSV text file; this one is binary`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    return new TextDecoder('windows-1252').decode(content);
  }
}
