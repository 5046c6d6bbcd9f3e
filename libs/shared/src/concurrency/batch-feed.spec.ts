import { BatchFeed } from './batch-feed.js';

/** Lets the taker run until it waits again. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('BatchFeed', () => {
  it('gives the taker each batch as it is added, in order, and ends after the last', async () => {
    const feed = new BatchFeed<number>();
    const taken: number[][] = [];
    const taking = (async () => {
      for await (const batch of feed) taken.push([...batch]);
      return 'ended';
    })();
    feed.add([1, 2]);
    await turn();
    expect(taken).toEqual([[1, 2]]);
    feed.add([]);
    feed.add([3]);
    feed.add([4, 5]);
    await turn();
    expect(taken).toEqual([[1, 2], [3], [4, 5]]);
    feed.end();
    expect(await taking).toBe('ended');
    expect(() => feed.add([6])).toThrow('nothing is added to a feed that ended');
  });

  it('gives batches added before the taker came, then the failure', async () => {
    const feed = new BatchFeed<string>();
    feed.add(['a']);
    feed.fail(new Error('matching failed'));
    const taken: string[] = [];
    await expect(
      (async () => {
        for await (const batch of feed) taken.push(...batch);
      })(),
    ).rejects.toThrow('matching failed');
    expect(taken).toEqual(['a']);
  });

  it('fails a taker that waits', async () => {
    const feed = new BatchFeed<string>();
    const taking = (async () => {
      for await (const batch of feed) void batch;
    })();
    await turn();
    feed.fail(new Error('late'));
    await expect(taking).rejects.toThrow('late');
  });
});
