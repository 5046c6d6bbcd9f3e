import { readFileSync } from 'node:fs';
import path from 'node:path';

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
