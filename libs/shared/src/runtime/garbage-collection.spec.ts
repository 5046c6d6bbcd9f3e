import { getHeapStatistics } from 'node:v8';
import { collectGarbageAbove } from './garbage-collection.js';

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
