// A small HTTP/1.1 load generator: `connections` keep-alive sockets, each sending its next request as
// soon as the previous answer's last byte has arrived, for `seconds`. It reads bodies by their
// length (or their chunks) without parsing or decompressing them, so large answers cost it little
// more than the bytes: autocannon, at 46 KB per answer, used more of the two cores than the service
// and set the pace itself.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

const HEADER_END = Buffer.from('\r\n\r\n');
const LINE_END = Buffer.from('\r\n');

/**
 * One request, timed to the last byte of its body (the first, uncached answer of a report), as curl's
 * `time_total` is; the body is decoded after the clock stops. Decoding is this client's work, not the
 * service's: fetch's stream decoding took ~130 ms for the million-row account's busiest month (967 KB
 * of gzip, 9.6 MB of JSON), more than the answer's gzip and serialisation together, and zlib's
 * gunzipSync of it still 55-80 ms (a browser inflates while the bytes arrive, off its page's thread).
 * @param {string} url
 * @param {{ method?: string, headers?: Record<string, string>, body?: string }} [options]
 * @returns {Promise<{ status: number, body: Buffer, ms: number }>}
 */
export function timedRequest(url, { method = 'GET', headers = {}, body } = {}) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const sent = httpRequest(url, { method, headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) } }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const ms = performance.now() - started;
        const raw = Buffer.concat(chunks);
        const coding = response.headers['content-encoding'];
        const decoded = coding === 'gzip' ? gunzipSync(raw) : coding === 'br' ? brotliDecompressSync(raw) : raw;
        resolve({ status: response.statusCode ?? 0, body: decoded, ms });
      });
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

/** The middle of `values` (the mean of the two middle ones when they are even in number). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * /health/live during an import, as a monitor or a load balancer probes it: 8 connections, a request
 * every 100 ms on each (80 a second, a probe due every 12.5 ms: a stall of the event loop still shows in
 * the p99). 32 connections (320 a second) cost the import they measured 0.2–0.7 s of the 100,000 rows'
 * 3–4 s on PostgreSQL, each probe taking 0.3 ms of the main thread's time (docs/imports.md "What the
 * health probes cost an import").
 */
export const HEALTH_PROBES = { connections: 8, intervalMs: 100 };

/**
 * Runs for `seconds`, or, with `until`, until that promise settles (then without a warm-up).
 * With `intervalMs`, each connection sends a request every `intervalMs` instead of right after the
 * previous answer (the paced probes of a load balancer or a monitor, not a flood), the connections
 * starting at spread-out moments: a request whose turn came while the previous answer was still
 * awaited goes as soon as it arrives, and its latency counts from its turn, so a stall of the service
 * shows in full in the percentiles. (Keep `intervalMs` well above the service's usual answer time:
 * each connection has one request in flight, so answers slower than the interval pile up.)
 * With `slowOverMs`, the requests slower than that are listed too (`slow`), each as when its turn came
 * and when its answer ended, in microseconds of the system's monotonic clock: the clock of a V8 CPU
 * profile's timestamps, so the service's profile shows what it was doing meanwhile (bench/profile.mjs).
 * @param {{ url: string, connections: number, seconds?: number, until?: Promise<unknown>, warmupSeconds?: number, method?: string,
 *   headers?: Record<string, string>, body?: string, pathOf?: () => string, intervalMs?: number, slowOverMs?: number }} options
 * @returns {Promise<{ rps: number, p50: number, p99: number, requests: number, errors: number, non2xx: number, slow?: { from: number, to: number }[] }>}
 */
export async function load(options) {
  if (options.until === undefined && (options.warmupSeconds ?? 1) > 0) await run({ ...options, seconds: options.warmupSeconds ?? 1 });
  return run(options);
}

async function run({ url, connections, seconds = Infinity, until, method = 'GET', headers = {}, body, pathOf, intervalMs, slowOverMs }) {
  const target = new URL(url);
  const fixedPath = target.pathname + target.search;
  const payload = body === undefined ? undefined : Buffer.from(body);
  const head = Object.entries({ host: target.host, connection: 'keep-alive', ...headers, ...(payload ? { 'content-length': String(payload.length) } : {}) })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const request = (path) => {
    const text = Buffer.from(`${method} ${path} HTTP/1.1\r\n${head}\r\n`);
    return payload ? Buffer.concat([text, payload]) : text;
  };
  const fixedRequest = pathOf ? undefined : request(fixedPath);
  const latencies = [];
  const counts = { errors: 0, non2xx: 0 };
  const started = performance.now();
  // performance.now() on the monotonic clock, in microseconds.
  const monotonicUs = (now) => Number(process.hrtime.bigint() / 1000n) - (performance.now() - now) * 1000;
  const slow = slowOverMs === undefined ? undefined : { overMs: slowOverMs, requests: [], monotonicUs };
  const deadline = { at: started + seconds * 1000 };
  const stop = () => (deadline.at = performance.now());
  until?.then(stop, stop);
  await Promise.all(Array.from({ length: connections }, () => connection(target, () => fixedRequest ?? request(pathOf()), deadline, latencies, counts, intervalMs, slow)));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (share) => (latencies.length === 0 ? Number.NaN : Math.round(latencies[Math.min(latencies.length - 1, Math.floor(share * latencies.length))]));
  return { rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), requests: latencies.length, ...counts, ...(slow ? { slow: slow.requests } : {}) };
}

/**
 * One keep-alive connection: request, read the whole answer, again until the deadline (with
 * `intervalMs`, at the next turn, a request's latency counted from its turn).
 */
function connection(target, nextRequest, deadline, latencies, counts, intervalMs, slow) {
  return new Promise((resolve) => {
    const socket = connect({ host: target.hostname, port: Number(target.port || 80), noDelay: true });
    let buffer = Buffer.alloc(0);
    let sentAt = 0;
    let response; // { status, remaining (body bytes still to come) or chunked state }
    const send = (turn = performance.now()) => {
      if (performance.now() >= deadline.at) {
        socket.end();
        return;
      }
      response = undefined;
      sentAt = turn;
      socket.write(nextRequest());
    };
    const next = () => {
      if (intervalMs === undefined) return send();
      const turn = sentAt + intervalMs;
      const wait = turn - performance.now();
      if (wait <= 0) send(turn);
      else setTimeout(() => send(turn), wait);
    };
    const finish = () => {
      const now = performance.now();
      latencies.push(now - sentAt);
      if (slow !== undefined && now - sentAt > slow.overMs) slow.requests.push({ from: slow.monotonicUs(sentAt), to: slow.monotonicUs(now) });
      if (response.status < 200 || response.status >= 300) counts.non2xx += 1;
      next();
    };
    socket.on('connect', () => {
      if (intervalMs === undefined) return send();
      // Paced connections start at spread-out moments of the interval, not all together.
      const turn = performance.now() + Math.random() * intervalMs;
      setTimeout(() => send(turn), turn - performance.now());
    });
    socket.on('data', (chunk) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      for (;;) {
        if (response === undefined) {
          const end = buffer.indexOf(HEADER_END);
          if (end < 0) return;
          const lines = buffer.toString('latin1', 0, end).split('\r\n');
          const status = Number(lines[0].split(' ')[1]);
          const field = (name) => lines.find((line) => line.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim();
          const chunked = field('transfer-encoding')?.toLowerCase() === 'chunked';
          response = { status, chunked, remaining: chunked ? 0 : Number(field('content-length') ?? 0), done: false };
          buffer = buffer.subarray(end + HEADER_END.length);
        }
        if (!response.chunked) {
          const taken = Math.min(response.remaining, buffer.length);
          response.remaining -= taken;
          buffer = buffer.subarray(taken);
          if (response.remaining > 0) return;
          finish();
          return;
        }
        // Chunked: skip each chunk's data and its CRLF; the zero-size chunk (and its CRLF) ends the answer.
        if (response.remaining > 0) {
          const taken = Math.min(response.remaining, buffer.length);
          response.remaining -= taken;
          buffer = buffer.subarray(taken);
          if (response.remaining > 0) return;
        }
        const line = buffer.indexOf(LINE_END);
        if (line < 0) return;
        const size = Number.parseInt(buffer.toString('latin1', 0, line), 16);
        if (size === 0) {
          if (buffer.length < line + 4) return; // the last chunk's line and the final CRLF (no trailers are sent)
          buffer = buffer.subarray(line + 4);
          finish();
          return;
        }
        buffer = buffer.subarray(line + LINE_END.length);
        response.remaining = size + LINE_END.length;
      }
    });
    socket.on('error', () => undefined); // counted at 'close'
    socket.on('close', () => {
      if (performance.now() < deadline.at) counts.errors += 1; // the service closed it, or it failed
      resolve();
    });
  });
}
