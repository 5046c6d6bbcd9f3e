import { basename } from 'node:path';
import type { FastifyRequest } from 'fastify';
import { PayloadTooLargeError } from '@app/shared';

export interface ReceivedFile {
  field: string;
  name: string;
  content: Buffer;
}

/**
 * Reads the file parts of a multipart request into memory (each bounded by the multipart plugin's
 * per-file limit; nothing touches the disk). Other parts are drained and ignored; a request that is
 * not multipart yields no files.
 */
export async function readFileParts(request: FastifyRequest, maxBytes: number): Promise<Map<string, ReceivedFile>> {
  const files = new Map<string, ReceivedFile>();
  if (!request.isMultipart()) return files;
  for await (const part of request.parts()) {
    if (part.type !== 'file') continue;
    let content: Buffer;
    try {
      content = await part.toBuffer();
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
        throw new PayloadTooLargeError(`${displayName(part.filename)} is larger than the limit of ${formatLimit(maxBytes)} per file`);
      }
      throw error;
    }
    if (!files.has(part.fieldname)) files.set(part.fieldname, { field: part.fieldname, name: displayName(part.filename), content });
  }
  return files;
}

/** The file's own name, never a client path (`C:\fakepath\x.csv` → `x.csv`), bounded in length. */
function displayName(filename: string | undefined): string {
  const name = basename((filename ?? '').replace(/\\/g, '/')).trim();
  return (name === '' ? 'unnamed file' : name).slice(0, 255);
}

function formatLimit(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MB` : `${bytes} bytes`;
}
