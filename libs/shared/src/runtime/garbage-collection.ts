import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type CollectGarbage = () => void;

let collector: CollectGarbage | null | undefined;
/** When the last collection was asked for (ms since the epoch). */
let lastAsked = Number.NEGATIVE_INFINITY;
/**
 * At most one collection a minute: a heap above the limit with little garbage in it (many users'
 * live data) would otherwise cost a full collection, a pause of the event loop, after every upload.
 */
const MIN_INTERVAL_MS = 60_000;

/**
 * V8's `gc` function without starting node with `--expose-gc`: the flag is set for the moment a new
 * context is made (the context then carries `gc`) and cleared again. Null where that fails.
 */
function loadCollector(): CollectGarbage | null {
  try {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as unknown;
    return typeof collect === 'function' ? (collect as CollectGarbage) : null;
  } catch {
    return null;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/**
 * When the heap holds more than `bytes` (live or garbage), a full garbage collection once the current
 * work has let go of what it holds: on a timer, after the answer in hand has been written. For after a
 * piece of work that leaves much garbage and little else (a large import). V8 collects the old
 * generation only once allocation presses again: after a million-row import the heap stayed at 2.1 GB
 * (50 MB of it live) for the next requests, whose scavenges each took 10–30 ms in it, and the process's
 * memory stayed that high until then. Below `bytes` the garbage is left to V8: a full collection
 * there saves little, and the smaller heap it leaves makes the next large upload collect more often
 * while it grows again. At most once a minute (`MIN_INTERVAL_MS`).
 */
export function collectGarbageAbove(bytes: number): void {
  if (getHeapStatistics().used_heap_size <= bytes || Date.now() - lastAsked < MIN_INTERVAL_MS) return;
  lastAsked = Date.now();
  setTimeout(() => {
    collector ??= loadCollector();
    collector?.();
  }, 0).unref();
}

/**
 * How much the old generation may grow past what the last full collection left live before V8
 * collects it again (`--heap-growing-percent`). V8's own choice, by how fast it collects, let a
 * 100,000-row import's heap grow from 122 MB live to 330 MB without a full collection (the rows, their
 * matches and much promoted garbage beside them): 440–450 MB of resident memory at its peak. At 60%
 * the peak is 368–399 MB, for two or three more full collections, marked mostly beside the import on
 * V8's own threads (docs/imports.md).
 */
export const HEAP_GROWING_PERCENT = 60;

/**
 * Sets `--heap-growing-percent` to `percent` unless node was started with that flag (on its command
 * line or in `NODE_OPTIONS`: the operator's choice stands). Returns whether it set it.
 */
export function limitHeapGrowth(percent: number = HEAP_GROWING_PERCENT, given: readonly string[] = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)]): boolean {
  if (given.some((flag) => /^--heap[-_]growing[-_]percent(=|$)/.test(flag))) {
    limited = undefined;
    return false;
  }
  setHeapGrowth(percent);
  limited = percent;
  return true;
}

/** The percent `limitHeapGrowth` set (undefined where it was not called, or the operator's flag stands). */
let limited: number | undefined;
/** How many narrowings (`narrowHeapGrowth`) are held. */
let narrowings = 0;

/**
 * The heap growth while an import runs on a thread of its own (`narrowHeapGrowth`). At a million rows
 * the thread's heap grew to 1,000–1,076 MB between full collections at 60%, its live data 520–620 MB;
 * 30% took the service's peak from 1,260–1,325 MB to 1,105–1,243. Not the service's setting: below
 * the thread's threshold, imports run on the main thread, where 30% made the embedded 100,000-row
 * import about 10% slower (more marking on the two cores the engine shares) (docs/imports.md).
 */
export const THREAD_IMPORT_HEAP_GROWING_PERCENT = 30;

/**
 * Sets the heap growth to `percent` until the returned function is called (once every narrowing is
 * released: back to what `limitHeapGrowth` set). V8's flags are the process's, read as each heap's
 * next limit is set: every isolate, the main thread's included, collects at `percent` meanwhile. Does
 * nothing where `limitHeapGrowth` did not set it (the operator's flag stands).
 */
export function narrowHeapGrowth(percent: number = THREAD_IMPORT_HEAP_GROWING_PERCENT): () => void {
  if (limited === undefined) return () => undefined;
  if (narrowings === 0) setHeapGrowth(percent);
  narrowings += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    narrowings -= 1;
    if (narrowings === 0 && limited !== undefined) setHeapGrowth(limited);
  };
}

function setHeapGrowth(percent: number): void {
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}
