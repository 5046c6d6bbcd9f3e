// Reading the import's progress stream (`application/x-ndjson`): one JSON object per line, delivered
// while the import runs. Chunks split lines (and UTF-8 characters) anywhere; a last line may lack its newline.

import { checked, ApiError } from './client';
import type { UploadMessage } from './types';

/** Calls `onMessage` for each non-empty line of the stream as soon as the line is complete. */
export async function readNdjson<T>(stream: ReadableStream<Uint8Array>, onMessage: (message: T) => void): Promise<void> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const emit = (line: string) => {
    if (line.trim() !== '') onMessage(JSON.parse(line) as T);
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      emit(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf('\n');
    }
  }
  buffer += decoder.decode();
  emit(buffer);
}

export interface UploadOutcome {
  /** The last message: `success` with the statistics, or `error`. */
  final: Extract<UploadMessage, { type: 'success' | 'error' }>;
}

/**
 * POST /api/upload-csv with both files, reporting each message as it arrives. Refusals before the
 * stream starts (400/413 `{type:'error', message}`) come back as an `error` outcome, like a failure
 * inside the stream; a 401 goes to the login page.
 */
export async function uploadTradeFiles(
  transactions: File,
  realizedGains: File,
  onMessage: (message: UploadMessage) => void,
  fetchImpl: typeof fetch = fetch,
): Promise<UploadOutcome> {
  const form = new FormData();
  form.append('transaction_history_file', transactions, transactions.name);
  form.append('realized_gains_file', realizedGains, realizedGains.name);
  return streamUpload('/api/upload-csv', form, onMessage, fetchImpl);
}

/**
 * POST /api/import: any broker's files (histories and their lots, detected by the service), and the
 * account for files that carry none; reported as `uploadTradeFiles` reports.
 */
export async function uploadBrokerFiles(
  files: readonly File[],
  account: string,
  onMessage: (message: UploadMessage) => void,
  fetchImpl: typeof fetch = fetch,
): Promise<UploadOutcome> {
  const form = new FormData();
  if (account.trim() !== '') form.append('account', account.trim());
  for (const file of files) form.append('files', file, file.name);
  return streamUpload('/api/import', form, onMessage, fetchImpl);
}

async function streamUpload(path: string, form: FormData, onMessage: (message: UploadMessage) => void, fetchImpl: typeof fetch): Promise<UploadOutcome> {
  const response = await fetchImpl(path, { method: 'POST', credentials: 'same-origin', body: form });
  if (!response.ok || response.body === null) {
    try {
      await checked(response);
    } catch (error) {
      const message = error instanceof ApiError ? error.message : String(error);
      const final = { type: 'error' as const, message };
      onMessage(final);
      return { final };
    }
  }
  let final: UploadOutcome['final'] | undefined;
  await readNdjson<UploadMessage>(response.body!, (message) => {
    if (message.type === 'success' || message.type === 'error') final = message;
    onMessage(message);
  });
  if (final === undefined) {
    final = { type: 'error', message: 'The connection closed before the import reported its result. Check the upload history below; uploading the same files again is safe.' };
    onMessage(final);
  }
  return { final };
}
