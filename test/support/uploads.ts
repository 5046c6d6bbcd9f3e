import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SignedIn } from './sign-in.js';

/** The shared fixtures beside the repository (`../shared/fixtures`), as CI lays them out. */
export const FIXTURES = process.env.SHARED_FIXTURES_DIR ?? path.resolve(process.cwd(), '../shared/fixtures');

export function fixture(...parts: string[]): Buffer {
  return readFileSync(path.join(FIXTURES, ...parts));
}

export function expected<T = any>(): T {
  return JSON.parse(fixture('schwab-example', 'expected.json').toString('utf8')) as T;
}

export interface UploadPart {
  name: string;
  content: Buffer | string;
}

/** The multipart body of `POST /api/upload-csv`. */
export function uploadForm(parts: { transaction_history_file?: UploadPart; realized_gains_file?: UploadPart }): FormData {
  const form = new FormData();
  for (const [field, part] of Object.entries(parts)) {
    if (part) form.append(field, new Blob([typeof part.content === 'string' ? part.content : new Uint8Array(part.content)]), part.name);
  }
  return form;
}

export function exampleFiles(): { transaction_history_file: UploadPart; realized_gains_file: UploadPart } {
  return {
    transaction_history_file: { name: 'transactions.csv', content: fixture('schwab-example', 'transactions.csv') },
    realized_gains_file: { name: 'realized_gains.csv', content: fixture('schwab-example', 'realized_gains.csv') },
  };
}

/** Reads an NDJSON body into its objects, one per non-empty line. */
export function ndjson(text: string): any[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

/**
 * Uploads the generated pair of files as `session` and reads the answer's stream to its end, starting
 * `act` once the import reports 60% (its rows are being written): a fault injected mid-import. Returns
 * the stream's text and what `act` gave (undefined if the import never got that far).
 */
export async function uploadWithFaultAtRowWrite<T>(
  session: SignedIn,
  origin: string,
  files: { transactions: string; gains: string },
  act: () => Promise<T>,
): Promise<{ text: string; acted: T | undefined }> {
  const response = await session.fetch('/api/upload-csv', {
    method: 'POST',
    headers: { origin },
    body: uploadForm({
      transaction_history_file: { name: 'transactions.csv', content: files.transactions },
      realized_gains_file: { name: 'realized_gains.csv', content: files.gains },
    }),
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  let text = '';
  let acting: Promise<T> | undefined;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += Buffer.from(value).toString('utf8');
    if (acting === undefined && text.includes('"percentage":60')) acting = act();
  }
  return { text, acted: await acting };
}
