import { basename } from 'node:path';
import type { FastifyRequest } from 'fastify';
import type {} from '@fastify/multipart';
import { PayloadTooLargeError, ValidationError } from '../errors/domain.errors.js';

export interface UploadedFile {
  field: string;
  /** The file's own name, never a client path (`C:\fakepath\x.csv` → `x.csv`), at most 255 characters. */
  name: string;
  content: Buffer;
}

export interface UploadRules {
  /** The file fields the endpoint takes; any other part is refused before it is read. */
  fields: readonly string[];
  /** Per file. */
  maxBytes: number;
  /** What to say when the request is not multipart at all. */
  notMultipart: string;
}

/**
 * Reads the file parts an upload endpoint takes into memory (each bounded by `maxBytes`; nothing
 * touches the disk). A part the endpoint does not take, a second file in one field, more parts than
 * the endpoint takes and a body that is not well-formed multipart are refused with a message that
 * says which; a missing field is for the caller to judge.
 */
export async function readUploadedFiles(request: FastifyRequest, rules: UploadRules): Promise<Map<string, UploadedFile>> {
  if (typeof request.isMultipart !== 'function' || !request.isMultipart()) throw new ValidationError(rules.notMultipart);
  const files = new Map<string, UploadedFile>();
  const allowed = rules.fields.length;
  try {
    for await (const part of request.parts({ limits: { fileSize: rules.maxBytes, files: allowed, parts: allowed, fields: 0 } })) {
      if (part.type !== 'file' || !rules.fields.includes(part.fieldname)) {
        throw new ValidationError(`Unexpected part '${printable(part.fieldname)}': this upload takes ${describeFields(rules.fields)}`);
      }
      if (files.has(part.fieldname)) throw new ValidationError(`Send one file in ${part.fieldname}, not several`);
      const name = displayName(part.filename);
      try {
        files.set(part.fieldname, { field: part.fieldname, name, content: await part.toBuffer() });
      } catch (error) {
        if (codeOf(error) === 'FST_REQ_FILE_TOO_LARGE') {
          throw new PayloadTooLargeError(`${name} is larger than the limit of ${formatLimit(rules.maxBytes)} per file`);
        }
        throw error;
      }
    }
  } catch (error) {
    throw refusal(error, rules.fields);
  }
  return files;
}

/** The multipart plugin's and the form parser's errors, as the refusal a person can act on. */
function refusal(error: unknown, fields: readonly string[]): unknown {
  if (error instanceof ValidationError || error instanceof PayloadTooLargeError) return error;
  const code = codeOf(error);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new ValidationError(`Too many parts: this upload takes ${describeFields(fields)}`);
  }
  const message = error instanceof Error ? error.message : '';
  // Busboy: "Multipart: Boundary not found", "Unexpected end of form", "Malformed part header"…
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_PROTO_VIOLATION' || /multipart|boundary|unexpected end|malformed|part header/i.test(message)) {
    return new ValidationError(`The upload is not a complete multipart/form-data body (${message.replace(/^Multipart: /, '')})`);
  }
  return error;
}

function describeFields(fields: readonly string[]): string {
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
