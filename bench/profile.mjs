// Profiles one upload of the active-trader shape (bench/scale.mjs's cuts of it), for looking into a
// figure of the benchmarks; it checks no goal. A fresh service on a fresh database (embedded, or
// BENCH_DATABASE_URL's server) is started with its inspector on a loopback port, and V8's own profiler
// records the measured upload only (not the service's start, nor the uploads before it):
//
//   PROFILE=cpu    (default) where the main thread's time goes: sampled every PROFILE_INTERVAL_US µs (250)
//   PROFILE=alloc  what the upload allocates, collected objects included (V8's sampling heap profiler,
//                  a sample every 8 KB): the young collections' work grows with it
//   PROFILE=live   what is alive at the upload's largest heap (the same profiler, collected objects left
//                  out, read whenever the heap in use has grown 5% past its largest so far): what sets
//                  the peak memory
//
//   PROFILE_UPLOAD=full     (default) everything before the history's busy day, into an empty account
//   PROFILE_UPLOAD=day      that day alone, the account holding what came before
//   PROFILE_UPLOAD=overlap  a 90-day export ending the day after, the account holding all but its last day
//
// PROFILE_PROBES=1 (with PROFILE=cpu) probes /health/live meanwhile as bench/scale.mjs does and shows
// what the service's main thread ran while the slowest probes waited (over 50 ms): its functions, its
// collector, and the time the profiler found it not running at all.
//
// The profiler sees the main thread only, so the measured upload is imported there whatever its size
// (IMPORT_THREAD_MIN_BYTES at its largest, unless it is set or PROFILE_PROBES=1 looks at the main thread
// beside an import's thread): a million rows would otherwise go to a thread of their own
// (docs/imports.md "Large uploads on a thread of their own") and the profile show the main thread idle.
//
// PROFILE_SHAPE=<name> profiles one of bench/shapes.mjs's shapes instead (`LOT_SHAPES`; with
// PROFILE_UPLOAD=full only, into an empty account).
//
// PROFILE_ROWS (100000) sizes the history as bench/scale.mjs does, with as many symbols (PROFILE_SYMBOLS
// gives another count; the generator stops early when the symbols cannot hold the rows: 1,026 symbols
// hold about 580,000). It prints the upload's time, the CPU the service and the database used for it,
// the functions that took most (self, then with what they called) and writes the profile to PROFILE_OUT
// (bench/results/profile.cpuprofile or .heapprofile), which Chrome's DevTools open. A CPU profile's
// report adds each source file's own time (where a flat profile's time goes by module) and the main
// thread's waits over 5 ms, each with what it ran just before and just after (what it waited for: the
// database, most often a `COPY` behind).
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { HEALTH_PROBES, load } from './support/load.mjs';
import { cpuSecondsOf, createDatabase, databaseCpuSeconds, freePort, loadSignIn, startBenchService, waitForReady } from './support/service.mjs';
import { activeTraderSymbols, dailyUploads, generateActiveTraderHistory, generateLotHistory, LOT_SHAPES } from './support/trading-history.mjs';
import { schwabPair, setAccount, timedUpload } from './support/uploads.mjs';

// Node 20 has WebSocket (for the inspector's protocol) behind a flag; later versions have it anyway.
if (typeof WebSocket === 'undefined') {
  const { status } = spawnSync(process.execPath, ['--experimental-websocket', ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(status ?? 1);
}

const SERVER_URL = process.env.BENCH_DATABASE_URL?.trim() || undefined;
const KIND = process.env.PROFILE ?? 'cpu';
const UPLOAD = process.env.PROFILE_UPLOAD ?? 'full';
const ROWS = Number(process.env.PROFILE_ROWS ?? 100_000);
const SYMBOLS = Number(process.env.PROFILE_SYMBOLS ?? activeTraderSymbols(ROWS));
const INTERVAL_US = Number(process.env.PROFILE_INTERVAL_US ?? 250);
const PROBES = process.env.PROFILE_PROBES === '1';
const SHAPE = process.env.PROFILE_SHAPE === undefined ? undefined : LOT_SHAPES.find(([name]) => name === process.env.PROFILE_SHAPE);
/** A /health/live probe slower than this counts as stalled. */
const STALL_MS = 50;
const OUT = process.env.PROFILE_OUT ?? `bench/results/profile.${KIND === 'cpu' ? 'cpuprofile' : 'heapprofile'}`;
const TRADER = 'profile@example.com';
/** Seconds between the uploads before and the measured one (`BENCH_SETTLE_SECONDS`, as bench/scale.mjs). */
const SETTLE_S = Number(process.env.BENCH_SETTLE_SECONDS ?? 5);

if (!['cpu', 'alloc', 'live'].includes(KIND) || !['full', 'day', 'overlap'].includes(UPLOAD) || !(ROWS > 0) || !Number.isInteger(SYMBOLS) || SYMBOLS < 1 || (PROBES && KIND !== 'cpu') || (process.env.PROFILE_SHAPE !== undefined && (SHAPE === undefined || UPLOAD !== 'full'))) {
  console.error(`PROFILE is cpu, alloc or live, PROFILE_UPLOAD full, day or overlap, PROFILE_ROWS a number of rows, PROFILE_SYMBOLS of symbols; PROFILE_PROBES=1 goes with PROFILE=cpu; PROFILE_SHAPE one of ${LOT_SHAPES.map(([name]) => name).join(', ')}, with PROFILE_UPLOAD=full`);
  process.exit(2);
}

/** The inspector's protocol over its WebSocket: `send` answers the command's result. */
async function inspector(port) {
  const [target] = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  const waiting = new Map();
  let nextId = 0;
  socket.addEventListener('message', ({ data }) => {
    const message = JSON.parse(data);
    const settle = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error) settle?.reject(new Error(`${message.error.message} (${message.error.code})`));
    else settle?.resolve(message.result);
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve, reject) => {
        nextId += 1;
        waiting.set(nextId, { resolve, reject });
        socket.send(JSON.stringify({ id: nextId, method, params }));
      }),
    close: () => socket.close(),
  };
}

/** A function as the tables name it: its name, file and line. */
const nameOf = ({ functionName, url, lineNumber }) => `${functionName || '(anonymous)'} ${shortUrl(url)}:${lineNumber + 1}`;

/** A source file as the tables name it: the last two segments of its address. */
const shortUrl = (url) => url.split('/').slice(-2).join('/');

/**
 * Each function's own share and its share with what it called (a recursive function counted once per
 * stack), from a tree whose nodes carry `callFrame`, `children` and an own `value`.
 */
function sharesOf(root) {
  const self = new Map();
  const total = new Map();
  const visit = (node, onStack) => {
    const name = nameOf(node.callFrame);
    self.set(name, (self.get(name) ?? 0) + node.value);
    const outer = onStack.has(name);
    if (!outer) onStack.add(name);
    let sum = node.value;
    for (const child of node.children) sum += visit(child, onStack);
    if (!outer) {
      onStack.delete(name);
      total.set(name, (total.get(name) ?? 0) + sum);
    }
    return sum;
  };
  visit(root, new Set());
  return { self, total };
}

/** A CPU profile's nodes by their ids. */
function nodesById(profile) {
  return new Map(profile.nodes.map((node) => [node.id, node]));
}

/** A CPU profile as a tree of nodes with their own time in ms. */
function cpuTree(profile) {
  const own = new Map();
  for (let index = 0; index < profile.samples.length; index += 1) {
    const id = profile.samples[index];
    own.set(id, (own.get(id) ?? 0) + (profile.timeDeltas[index + 1] ?? 0) / 1000);
  }
  const byId = nodesById(profile);
  const build = (node) => ({ callFrame: node.callFrame, value: own.get(node.id) ?? 0, children: (node.children ?? []).map((id) => build(byId.get(id))) });
  return build(profile.nodes[0]);
}

/** A sampling heap profile as a tree of nodes with their own allocations in MB. */
function allocationTree(node) {
  return { callFrame: node.callFrame, value: node.selfSize / 1_048_576, children: node.children.map(allocationTree) };
}

/** When each sample of a CPU profile was taken, in the profile's microseconds. */
function sampleTimes(profile) {
  const times = [];
  let at = profile.startTime;
  for (let index = 0; index < profile.samples.length; index += 1) times.push((at += profile.timeDeltas[index]));
  return times;
}

/**
 * The stretches during which some probe waited (overlapping slow probes joined), longest first, each
 * with what the profile sampled of the main thread within it.
 */
function printStalls(profile, slow, count) {
  const spans = [];
  for (const probe of [...slow].sort((a, b) => a.from - b.from)) {
    const last = spans.at(-1);
    if (last !== undefined && probe.from <= last.to) last.to = Math.max(last.to, probe.to);
    else spans.push({ ...probe });
  }
  const byId = nodesById(profile);
  const times = sampleTimes(profile);
  console.log(`\nstalls (/health/live waiting over ${STALL_MS} ms), longest first:`);
  for (const span of spans.sort((a, b) => b.to - b.from - (a.to - a.from)).slice(0, count)) {
    const shares = new Map();
    let unsampled = 0;
    for (let index = 0; index < times.length; index += 1) {
      if (times[index] < span.from || times[index] >= span.to) continue;
      // A sample stands for the interval after it; a longer wait for the next one is time the thread did not run.
      const ms = (Math.min(times[index + 1] ?? span.to, span.to) - times[index]) / 1000;
      const own = Math.min(ms, (2 * INTERVAL_US) / 1000);
      const name = nameOf(byId.get(profile.samples[index]).callFrame);
      shares.set(name, (shares.get(name) ?? 0) + own);
      unsampled += ms - own;
    }
    const lengthMs = (span.to - span.from) / 1000;
    console.log(`${lengthMs.toFixed(0).padStart(6)} ms at +${((span.from - profile.startTime) / 1000).toFixed(0)} ms: not running ${unsampled.toFixed(0)} ms`);
    for (const [name, ms] of [...shares].sort((a, b) => b[1] - a[1]).slice(0, 5)) console.log(`${ms.toFixed(0).padStart(12)} ms  ${name}`);
  }
}

/** Each source file's own share of a tree as `sharesOf` takes it (V8's own entries, which have no file, by their names). */
function fileShares(root) {
  const shares = new Map();
  const visit = (node) => {
    const file = shortUrl(node.callFrame.url) || node.callFrame.functionName;
    shares.set(file, (shares.get(file) ?? 0) + node.value);
    for (const child of node.children) visit(child);
  };
  visit(root);
  return shares;
}

/** Idle stretches of the main thread longer than this are listed by `printWaits`. */
const WAIT_MS = 5;

/**
 * The stretches the main thread sampled idle for over WAIT_MS, in time order, each with the innermost
 * frames of the samples just before and just after it: what it had done, and what it ran once it went on.
 */
function printWaits(profile) {
  const byId = nodesById(profile);
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const stackOf = (id) => {
    const frames = [];
    for (let at = id; at !== undefined && frames.length < 4; at = parents.get(at)) {
      if (byId.get(at).callFrame.functionName !== '(root)') frames.push(nameOf(byId.get(at).callFrame));
    }
    return frames.join(' < ') || '–';
  };
  const isIdle = (index) => byId.get(profile.samples[index]).callFrame.functionName === '(idle)';
  const times = sampleTimes(profile);
  const waits = [];
  for (let index = 0; index < profile.samples.length; index += 1) {
    if (!isIdle(index)) continue;
    let end = index;
    while (end + 1 < profile.samples.length && isIdle(end + 1)) end += 1;
    const ms = ((times[end + 1] ?? times[end]) - times[index]) / 1000;
    if (ms > WAIT_MS) waits.push({ index, end, ms });
    index = end;
  }
  const total = waits.reduce((sum, wait) => sum + wait.ms, 0);
  console.log(`\nthe main thread's waits over ${WAIT_MS} ms: ${waits.length}, ${total.toFixed(0)} ms in all`);
  for (const { index, end, ms } of waits) {
    console.log(`${ms.toFixed(0).padStart(6)} ms at +${((times[index] - profile.startTime) / 1000).toFixed(0)} ms`);
    console.log(`          before: ${index > 0 ? stackOf(profile.samples[index - 1]) : '–'}`);
    console.log(`          after:  ${end + 1 < profile.samples.length ? stackOf(profile.samples[end + 1]) : '–'}`);
  }
}

function printTop(title, shares, unit, count) {
  console.log(`\n${title}`);
  for (const [name, value] of [...shares].sort((a, b) => b[1] - a[1]).slice(0, count)) {
    console.log(`${value.toFixed(unit === 'ms' ? 0 : 1).padStart(8)} ${unit}  ${name}`);
  }
}

/**
 * While `until` runs, the heap in use every 250 ms; whenever it has grown 5% past its largest so far, the
 * sampling profile of what is alive then (PROFILE=live). Answers the last one read, the heap then and when.
 */
async function largestHeap(v8, until) {
  const started = Date.now();
  let done = false;
  until.finally(() => (done = true));
  let peak = { usedBytes: 0, atMs: 0, profile: undefined };
  while (!done) {
    const { usedSize } = await v8.send('Runtime.getHeapUsage');
    if (usedSize > peak.usedBytes * 1.05) {
      const { profile } = await v8.send('HeapProfiler.getSamplingProfile');
      peak = { usedBytes: usedSize, atMs: Date.now() - started, profile };
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await v8.send('HeapProfiler.stopSampling');
  return peak;
}

async function main() {
  const history = SHAPE === undefined ? generateActiveTraderHistory({ rows: ROWS, symbols: SYMBOLS }) : generateLotHistory({ rows: ROWS, ...SHAPE[2] });
  const { base, lastDay, overlap } = SHAPE === undefined ? dailyUploads(history) : { base: history };
  const before = { full: [], day: [base], overlap: [base, lastDay] }[UPLOAD];
  const measured = { full: base, day: lastDay, overlap }[UPLOAD];
  const dataDir = await mkdtemp(join(tmpdir(), 'sta-bench-profile-'));
  const database = SERVER_URL ? await createDatabase(SERVER_URL) : undefined;
  const inspectorPort = await freePort();
  const flags = [process.env.BENCH_SERVICE_NODE_FLAGS ?? '', `--inspect=127.0.0.1:${inspectorPort}`].join(' ');
  const service = await startBenchService({
    dataDir,
    databaseUrl: database?.url,
    users: [TRADER],
    env: {
      UPLOAD_MAX_BYTES: String(Math.max(52_428_800, (base.transactions.length + base.gains.length) * 2)),
      // The service's own threshold where the probes look at the main thread beside an import's thread.
      ...(PROBES || process.env.IMPORT_THREAD_MIN_BYTES !== undefined ? {} : { IMPORT_THREAD_MIN_BYTES: String(2 ** 53 - 1) }),
    },
    nodeFlags: flags,
  });
  try {
    await waitForReady(service.url, 60_000);
    const signIn = await loadSignIn(dataDir);
    const session = await signIn({ url: service.url }, TRADER);
    await setAccount(session);
    for (const upload of before) await timedUpload(service.url, session.cookie, schwabPair(upload.transactions, upload.gains));
    // As in bench/scale.mjs: the next upload comes once the service has done an import's after-work.
    if (before.length > 0) await new Promise((resolve) => setTimeout(resolve, SETTLE_S * 1000));
    const v8 = await inspector(inspectorPort);
    if (KIND === 'cpu') {
      await v8.send('Profiler.enable');
      await v8.send('Profiler.setSamplingInterval', { interval: INTERVAL_US });
      await v8.send('Profiler.start');
    } else {
      const collected = KIND === 'alloc';
      await v8.send('HeapProfiler.startSampling', { samplingInterval: 8192, includeObjectsCollectedByMajorGC: collected, includeObjectsCollectedByMinorGC: collected });
    }
    const cpuBefore = { service: cpuSecondsOf(service.pid), database: databaseCpuSeconds(service.pid, SERVER_URL !== undefined) };
    const uploading = timedUpload(service.url, session.cookie, schwabPair(measured.transactions, measured.gains));
    const live = PROBES ? await load({ url: `${service.url}/health/live`, ...HEALTH_PROBES, until: uploading, slowOverMs: STALL_MS }) : undefined;
    const largest = KIND === 'live' ? largestHeap(v8, uploading) : undefined;
    const { totalMs } = await uploading;
    const cpu = { service: cpuSecondsOf(service.pid) - cpuBefore.service, database: databaseCpuSeconds(service.pid, SERVER_URL !== undefined) - cpuBefore.database };
    const peak = await largest;
    const { profile } = peak?.profile !== undefined ? { profile: peak.profile } : await v8.send(KIND === 'cpu' ? 'Profiler.stop' : 'HeapProfiler.stopSampling');
    v8.close();
    await mkdir(dirname(OUT), { recursive: true });
    await writeFile(OUT, JSON.stringify(profile));
    console.log(
      `${UPLOAD} upload of ${measured.rows.toLocaleString('en-US')} rows and ${measured.lots.toLocaleString('en-US')} lots, ${SERVER_URL ? 'PostgreSQL server' : 'embedded database'}: ` +
        `${totalMs.toFixed(0)} ms; CPU: service ${cpu.service.toFixed(2)} s, database ${Number.isNaN(cpu.database) ? '–' : `${cpu.database.toFixed(2)} s`}; profile in ${OUT}`,
    );
    const unit = KIND === 'cpu' ? 'ms' : 'MB';
    const tree = KIND === 'cpu' ? cpuTree(profile) : allocationTree(profile.head);
    const { self, total } = sharesOf(tree);
    if (peak !== undefined) console.log(`largest heap in use: ${(peak.usedBytes / 1_048_576).toFixed(0)} MB at +${peak.atMs} ms`);
    console.log(`${{ cpu: 'sampled', alloc: 'allocated', live: 'alive' }[KIND]}: ${[...self.values()].reduce((sum, value) => sum + value, 0).toFixed(0)} ${unit}`);
    printTop('self', self, unit, 30);
    printTop('with what they called', total, unit, 40);
    if (KIND === 'cpu') {
      printTop('by source file, own time', fileShares(tree), unit, 25);
      printWaits(profile);
    }
    if (live !== undefined) {
      console.log(`\n/health/live meanwhile: p99 ${live.p99} ms, ${live.slow.length} of ${live.requests} probes over ${STALL_MS} ms`);
      printStalls(profile, live.slow, 8);
    }
  } finally {
    await service.stop();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
