// Uploads for the benchmarks: the trader's account, a multipart upload timed to the byte, and an
// import into a fresh service measured as bench/scale.mjs and bench/shapes.mjs report it.
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { HEALTH_PROBES, load } from './load.mjs';
import { childPids, cpuSecondsOf, createDatabase, databaseCpuSeconds, loadSignIn, peakRssMb, startBenchService, waitForReady } from './service.mjs';

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

/**
 * A fresh service on a fresh database (embedded, or a new database of `serverUrl`'s server), a trader
 * signed in with the account set, and one upload of `pair` ({transactions, gains} Schwab files) timed
 * while /health/live is probed as a monitor would (HEALTH_PROBES): the upload's time and first progress
 * line, the CPU the service and the database used for it, the service's and the embedded engine's peak
 * RSS, and the probes' p99. Then `after` ({ url, session, service }) runs against the account before
 * the service stops, and what it answers comes back as `after`.
 * @template T
 * @param {{ pair: { transactions: string, gains: string }, serverUrl?: string, trader: string, after?: (context: { url: string, session: { cookie: string, fetch: typeof fetch }, service: { pid: number } }) => Promise<T> }} options
 */
export async function importIntoFreshService({ pair, serverUrl, trader, after }) {
  const dataDir = await mkdtemp(join(tmpdir(), 'sta-bench-import-'));
  const database = serverUrl ? await createDatabase(serverUrl) : undefined;
  const service = await startBenchService({
    dataDir,
    databaseUrl: database?.url,
    users: [trader],
    env: { UPLOAD_MAX_BYTES: String(Math.max(52_428_800, (pair.transactions.length + pair.gains.length) * 2)) },
  });
  const { url } = service;
  try {
    await waitForReady(url, 60_000);
    const session = await (await loadSignIn(dataDir))({ url }, trader);
    await setAccount(session);
    const cpuNow = () => ({ service: cpuSecondsOf(service.pid), database: databaseCpuSeconds(service.pid, serverUrl !== undefined) });
    const cpuBefore = cpuNow();
    const importing = timedUpload(url, session.cookie, schwabPair(pair.transactions, pair.gains));
    const live = await load({ url: `${url}/health/live`, ...HEALTH_PROBES, until: importing });
    const imported = await importing;
    const cpuAfter = cpuNow();
    const importCpu = { service: cpuAfter.service - cpuBefore.service, database: cpuAfter.database - cpuBefore.database };
    const servicePeak = peakRssMb(service.pid);
    const enginePeak = childPids(service.pid).map(peakRssMb).reduce((sum, each) => sum + each, 0);
    const then = after === undefined ? undefined : await after({ url, session, service });
    return { imported, importCpu, live, servicePeak, enginePeak, after: then };
  } finally {
    await service.stop();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * An import's CPU (`importIntoFreshService`'s `importCpu`: the service's threads, the database's
 * processes) as the tables show it, with what it takes at least over the machine's cores: no overlap
 * of their work can finish the import sooner (README "How cost grows").
 */
export function importCpuText({ service, database }) {
  const cores = availableParallelism();
  return Number.isNaN(database) ? `${service.toFixed(1)} s + –` : `${service.toFixed(1)} + ${database.toFixed(1)} s (≥ ${((service + database) / cores).toFixed(1)} s on ${cores} cores)`;
}
