import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { collectGarbageAbove, limitHeapGrowth } from './garbage-collection.js';

const heapUsed = () => getHeapStatistics().used_heap_size;

describe('collectGarbageAbove', () => {
  it('collects the garbage a large piece of work left, without waiting for allocation to ask for it', async () => {
    const work = { rows: Array.from({ length: 1_500_000 }, (_, index) => ({ index, text: `row ${index}` })) };
    const holding = heapUsed();
    expect(work.rows).toHaveLength(1_500_000);
    work.rows = [];
    collectGarbageAbove(holding - 1);
    const deadline = Date.now() + 5000;
    while (heapUsed() > holding - 60_000_000 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heapUsed()).toBeLessThan(holding - 60_000_000);
  });
});

describe('limitHeapGrowth', () => {
  /** A full collection now (V8's `gc`, from a context made while `--expose-gc` is set). */
  const collect = (() => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    setFlagsFromString('--no-expose-gc');
    return gc;
  })();

  afterEach(() => setFlagsFromString('--heap-growing-percent=0')); // V8's own choice again

  /** Full collections while 250 MB of live objects are built up a little at a time. */
  async function fullCollectionsWhileGrowing(): Promise<number> {
    let collections = 0;
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if ((entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) collections += 1;
    });
    observer.observe({ entryTypes: ['gc'] });
    const live: { index: number; text: string }[][] = [];
    for (let chunk = 0; chunk < 3_500; chunk += 1) {
      live.push(Array.from({ length: 1_000 }, (_, index) => ({ index, text: `row ${chunk}/${index}` })));
      if (chunk % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await new Promise((resolve) => setTimeout(resolve, 50)); // the observer hears of the last collections
    observer.disconnect();
    expect(live).toHaveLength(3_500);
    return collections;
  }

  it('makes V8 collect the old generation as it grows, where its own choice lets it grow to several times its live size first', async () => {
    // The limit V8 grows the heap to is worked out by each full collection: one starts each count.
    collect();
    const own = await fullCollectionsWhileGrowing();
    expect(limitHeapGrowth(10, [])).toBe(true);
    collect();
    const limited = await fullCollectionsWhileGrowing();
    expect(limited).toBeGreaterThanOrEqual(own + 3);
  });

  it("leaves the operator's --heap-growing-percent as it is", () => {
    expect(limitHeapGrowth(10, ['--enable-source-maps', '--heap-growing-percent=30'])).toBe(false);
    expect(limitHeapGrowth(10, ['--heap_growing_percent=30'])).toBe(false);
    expect(limitHeapGrowth(10, ['--heap-growing-percentage'])).toBe(true);
  });
});
