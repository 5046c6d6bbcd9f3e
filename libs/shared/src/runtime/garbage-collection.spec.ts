import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { collectGarbageAbove, limitHeapGrowth, narrowHeapGrowth } from './garbage-collection.js';

const heapUsed = () => getHeapStatistics().used_heap_size;

describe('collectGarbageAbove', () => {
  it('collects the garbage a large piece of work left, without waiting for allocation to ask for it', async () => {
    const work = { rows: Array.from({ length: 1_500_000 }, (_, index) => ({ index, text: `row ${index}` })) };
    const holding = heapUsed();
    expect(work.rows).toHaveLength(1_500_000);
    work.rows = [];
    // Well below what the heap holds: a young collection between the reading above and this call could
    // take it under `holding - 1`, and the call would then rightly leave the garbage to V8.
    collectGarbageAbove(holding / 2);
    const deadline = Date.now() + 5000;
    while (heapUsed() > holding - 60_000_000 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heapUsed()).toBeLessThan(holding - 60_000_000);
  });
});

describe('limitHeapGrowth', () => {
  afterEach(() => setFlagsFromString('--heap-growing-percent=0')); // V8's own choice again

  it('makes V8 collect the old generation as it grows, where its own choice lets it grow to several times its live size first', async () => {
    const own = await fullCollectionsWhileGrowing();
    expect(limitHeapGrowth(5, [])).toBe(true);
    const limited = await fullCollectionsWhileGrowing();
    expect(limited).toBeGreaterThanOrEqual(own + 4);
  });

  it("leaves the operator's --heap-growing-percent as it is", () => {
    expect(limitHeapGrowth(10, ['--enable-source-maps', '--heap-growing-percent=30'])).toBe(false);
    expect(limitHeapGrowth(10, ['--heap_growing_percent=30'])).toBe(false);
    expect(limitHeapGrowth(10, ['--heap-growing-percentage'])).toBe(true);
  });
});

describe('narrowHeapGrowth', () => {
  afterEach(() => setFlagsFromString('--heap-growing-percent=0'));

  it('lets heaps grow less until every narrowing is released, then as limitHeapGrowth set', async () => {
    expect(limitHeapGrowth(100, [])).toBe(true);
    const wide = await fullCollectionsWhileGrowing();
    const first = narrowHeapGrowth(5);
    const second = narrowHeapGrowth(5);
    const narrowed = await fullCollectionsWhileGrowing();
    expect(narrowed).toBeGreaterThanOrEqual(wide + 4);
    first();
    first(); // released once only: the second still holds
    expect(await fullCollectionsWhileGrowing()).toBeGreaterThanOrEqual(wide + 4);
    second();
    expect(await fullCollectionsWhileGrowing()).toBeLessThanOrEqual(wide + 1);
  });

  it("leaves the operator's --heap-growing-percent as it is", async () => {
    setFlagsFromString('--heap-growing-percent=100');
    expect(limitHeapGrowth(10, ['--heap-growing-percent=100'])).toBe(false);
    const given = await fullCollectionsWhileGrowing();
    const release = narrowHeapGrowth(5);
    try {
      expect(await fullCollectionsWhileGrowing()).toBeLessThanOrEqual(given + 1);
    } finally {
      release();
    }
  });
});

/**
 * Full collections while 250 MB of live objects are built up a little at a time, in a fresh isolate
 * (a worker thread: V8's flags are the process's, its heap its own). Counted in this test worker's
 * heap, the figures depended on what earlier test files had left in it: at 10%, a heap of a
 * gigabyte left room for 250 MB with two collections.
 */
async function fullCollectionsWhileGrowing(): Promise<number> {
  const worker = new Worker(GROWING, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 2048 } });
  try {
    return await new Promise<number>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  } finally {
    await worker.terminate();
  }
}

/** A worker's script: builds up 250 MB of live objects and posts how many full collections it took. */
const GROWING = `
const { parentPort } = require('node:worker_threads');
const { constants, PerformanceObserver } = require('node:perf_hooks');
let collections = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (entry.detail && entry.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) collections += 1;
});
observer.observe({ entryTypes: ['gc'] });
(async () => {
  const live = [];
  for (let chunk = 0; chunk < 3500; chunk += 1) {
    live.push(Array.from({ length: 1000 }, (_, index) => ({ index, text: 'row ' + chunk + '/' + index })));
    if (chunk % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  await new Promise((resolve) => setTimeout(resolve, 50)); // the observer hears of the last collections
  observer.disconnect();
  parentPort.postMessage(live.length === 3500 ? collections : -1);
})();
`;
