// Uploads for the benchmarks: the trader's account, and a multipart upload timed to the byte.
import { request } from 'node:http';

export async function setAccount(session) {
  const response = await session.fetch('/auth/profile', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ brokerage_account: 'XXXX-1234' }),
  });
  if (response.status !== 200) throw new Error(`PUT /auth/profile: ${response.status}`);
}

/** The contract's two parts: [field, file name, content]. */
export const schwabPair = (transactions, gains) => [
  ['transaction_history_file', 'transactions.csv', transactions],
  ['realized_gains_file', 'realized_gains.csv', gains],
];

/**
 * Uploads `parts` ([field, file name, content]) through node:http, so the moment the last byte of the
 * body is handed to the socket is known; resolves with the total time, the time from that moment to
 * the first progress line, and whether the stream ended in success.
 */
export function timedUpload(base, cookie, parts, path = '/api/upload-csv') {
  const boundary = `bench${Date.now()}`;
  const part = (field, name, content) =>
    Buffer.concat([Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${field}"; filename="${name}"\r\ncontent-type: text/csv\r\n\r\n`), Buffer.from(content), Buffer.from('\r\n')]);
  const body = Buffer.concat([...parts.map(([field, name, content]) => part(field, name, content)), Buffer.from(`--${boundary}--\r\n`)]);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let sentAt = 0;
    let firstLineAt = 0;
    let text = '';
    const req = request(`${base}${path}`, { method: 'POST', headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': body.length } }, (response) => {
      response.setEncoding('utf8');
      response.on('data', (chunk) => {
        if (firstLineAt === 0 && (text + chunk).includes('\n')) firstLineAt = performance.now();
        text += chunk;
      });
      response.on('end', () => {
        const lines = text.split('\n').filter((line) => line.trim() !== '');
        const last = JSON.parse(lines.at(-1) ?? '{}');
        if (last.type !== 'success') reject(new Error(`import failed: ${response.statusCode} ${lines.at(-1)}`));
        else resolve({ ok: true, totalMs: performance.now() - started, firstLineMs: firstLineAt - sentAt });
      });
    });
    req.on('error', reject);
    req.end(body, () => (sentAt = performance.now()));
  });
}
