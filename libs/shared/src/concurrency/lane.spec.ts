import { Lane } from './lane.js';

describe('Lane', () => {
  it('runs at most its width at once, the rest in the order they came, and goes on after a failure', async () => {
    const lane = new Lane(2);
    const started: number[] = [];
    const finish = new Map<number, () => void>();
    let running = 0;
    let most = 0;
    const work = (id: number, fail = false) =>
      lane.run(async () => {
        started.push(id);
        running += 1;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => finish.set(id, resolve));
        running -= 1;
        if (fail) throw new Error(`work ${id} failed`);
        return id;
      });
    const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

    const results = [work(1, true), work(2), work(3), work(4)].map((result) => result.then((value) => value, (error: Error) => error.message));
    await settle();
    expect(started).toEqual([1, 2]);

    finish.get(1)?.();
    await settle();
    expect(started).toEqual([1, 2, 3]);
    finish.get(2)?.();
    await settle();
    finish.get(3)?.();
    await settle();
    finish.get(4)?.();

    expect(await Promise.all(results)).toEqual(['work 1 failed', 2, 3, 4]);
    expect(started).toEqual([1, 2, 3, 4]);
    expect(most).toBe(2);
  });
});
