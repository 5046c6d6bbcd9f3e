import { afterEach, describe, expect, it, vi } from 'vitest';
import { navigation } from './client';
import { readNdjson, uploadBrokerFiles, uploadTradeFiles } from './ndjson';
import type { UploadMessage } from './types';

/** A stream that delivers `text` in the given pieces (as bytes, so a piece may cut a character in two). */
function streamOf(pieces: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(typeof piece === 'string' ? encoder.encode(piece) : piece);
      controller.close();
    },
  });
}

const LINES = [
  '{"type":"progress","percentage":25,"message":"Starting data processing..."}',
  '{"type":"progress","percentage":40,"message":"Processing transaction history and realized gains..."}',
  '{"type":"progress","percentage":60,"message":"Synchronizing with database..."}',
  '{"type":"progress","percentage":80,"message":"Finalizing data import..."}',
  '{"type":"success","message":"Successfully processed files","stats":{"transactions_inserted":75,"realized_gains_lots":24,"broker_verified_trades":18}}',
];

describe('readNdjson', () => {
  it('gives each line as soon as it is complete, however the chunks fall', async () => {
    const text = `${LINES.join('\n')}\n`;
    const pieces = [text.slice(0, 10), text.slice(10, 90), text.slice(90, 91), text.slice(91)];
    const seen: unknown[] = [];
    await readNdjson(streamOf(pieces), (message) => seen.push(message));
    expect(seen).toEqual(LINES.map((line) => JSON.parse(line)));
  });

  it('reads a last line without a newline, and skips blank lines', async () => {
    const seen: unknown[] = [];
    await readNdjson(streamOf(['{"a":1}\n\n', '  \n{"b":2}']), (message) => seen.push(message));
    expect(seen).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('keeps a character that a chunk boundary cuts in two', async () => {
    const bytes = new TextEncoder().encode('{"message":"Données – 100 €"}\n');
    const cut = bytes.indexOf(0xe2) + 1; // inside the en dash
    const seen: { message: string }[] = [];
    await readNdjson<{ message: string }>(streamOf([bytes.slice(0, cut), bytes.slice(cut)]), (message) => seen.push(message));
    expect(seen[0].message).toBe('Données – 100 €');
  });
});

describe('uploadTradeFiles', () => {
  afterEach(() => vi.restoreAllMocks());
  const files = () => [new File(['a'], 'transactions.csv'), new File(['b'], 'realized_gains.csv')] as const;

  it('posts both parts and reports each message, ending with the statistics', async () => {
    const fetchMock = vi.fn(async (_path: RequestInfo | URL, _init?: RequestInit) => new Response(streamOf(LINES.map((line) => `${line}\n`)), { status: 200 }));
    const seen: UploadMessage[] = [];
    const [transactions, gains] = files();
    const outcome = await uploadTradeFiles(transactions, gains, (message) => seen.push(message), fetchMock as unknown as typeof fetch);
    expect(seen.map((message) => (message.type === 'progress' ? message.percentage : message.type))).toEqual([25, 40, 60, 80, 'success']);
    expect(outcome.final).toMatchObject({ type: 'success', stats: { transactions_inserted: 75 } });
    const [path, init] = fetchMock.mock.calls[0];
    expect(path).toBe('/api/upload-csv');
    expect(init?.method).toBe('POST');
    const form = init?.body as FormData;
    expect((form.get('transaction_history_file') as File).name).toBe('transactions.csv');
    expect((form.get('realized_gains_file') as File).name).toBe('realized_gains.csv');
  });

  it('ends with the error line when the import fails inside the stream', async () => {
    const failing = [LINES[0], '{"type":"error","message":"bad_number.csv, line 11: column \'Amount\': cannot read \'-$12.3.4\' as a number"}'];
    const fetchMock = vi.fn(async () => new Response(streamOf(failing.map((line) => `${line}\n`))));
    const [transactions, gains] = files();
    const outcome = await uploadTradeFiles(transactions, gains, () => undefined, fetchMock as unknown as typeof fetch);
    expect(outcome.final).toEqual({ type: 'error', message: "bad_number.csv, line 11: column 'Amount': cannot read '-$12.3.4' as a number" });
  });

  it('turns a refusal before the stream (400 with {type, message}) into an error', async () => {
    const body = JSON.stringify({ type: 'error', message: 'Brokerage account number not set. Please update your profile.' });
    const fetchMock = vi.fn(async () => new Response(body, { status: 400, headers: { 'content-type': 'application/json' } }));
    const seen: UploadMessage[] = [];
    const [transactions, gains] = files();
    const outcome = await uploadTradeFiles(transactions, gains, (message) => seen.push(message), fetchMock as unknown as typeof fetch);
    expect(outcome.final).toEqual({ type: 'error', message: 'Brokerage account number not set. Please update your profile.' });
    expect(seen).toEqual([outcome.final]);
  });

  it('says so when the stream stops without a last word', async () => {
    const fetchMock = vi.fn(async () => new Response(streamOf([`${LINES[0]}\n`])));
    const [transactions, gains] = files();
    const outcome = await uploadTradeFiles(transactions, gains, () => undefined, fetchMock as unknown as typeof fetch);
    expect(outcome.final.type).toBe('error');
    expect(outcome.final.message).toMatch(/connection closed/);
  });

  it('sends a signed-out browser to the login page on 401', async () => {
    const toLogin = vi.spyOn(navigation, 'toLogin').mockImplementation(() => undefined);
    const body = JSON.stringify({ success: false, error: 'Authentication required', redirect_to_login: true });
    const fetchMock = vi.fn(async () => new Response(body, { status: 401 }));
    const [transactions, gains] = files();
    const outcome = await uploadTradeFiles(transactions, gains, () => undefined, fetchMock as unknown as typeof fetch);
    expect(toLogin).toHaveBeenCalledOnce();
    expect(outcome.final.type).toBe('error');
  });
});

describe('uploadBrokerFiles', () => {
  it('posts every file in `files` and the account when one is given, to /api/import', async () => {
    const fetchMock = vi.fn(async (_path: RequestInfo | URL, _init?: RequestInit) => new Response(streamOf(LINES.map((line) => `${line}\n`)), { status: 200 }));
    const files = [new File(['a'], 'U1234567.csv'), new File(['b'], 'activity.csv')];
    const outcome = await uploadBrokerFiles(files, ' RH-1 ', () => undefined, fetchMock as unknown as typeof fetch);
    expect(outcome.final.type).toBe('success');
    const [path, init] = fetchMock.mock.calls[0];
    expect(path).toBe('/api/import');
    const form = init?.body as FormData;
    expect(form.getAll('files').map((file) => (file as File).name)).toEqual(['U1234567.csv', 'activity.csv']);
    expect(form.get('account')).toBe('RH-1');
    await uploadBrokerFiles(files, '  ', () => undefined, fetchMock as unknown as typeof fetch);
    expect((fetchMock.mock.calls[1][1]?.body as FormData).has('account')).toBe(false);
  });
});
