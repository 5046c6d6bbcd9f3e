import { SingleFlight } from './single-flight.js';

describe('SingleFlight', () => {
  it('gives concurrent callers of one key the same work, other keys their own, and starts anew once it settled', async () => {
    const flights = new SingleFlight<number>();
    let started = 0;
    let finish: (value: number) => void = () => undefined;
    const work = () => {
      started += 1;
      return new Promise<number>((resolve) => (finish = resolve));
    };
    const [first, second] = [flights.run('a', work), flights.run('a', work)];
    expect(second).toBe(first);
    expect(started).toBe(1);
    void flights.run('b', () => Promise.resolve(7));
    finish(42);
    expect(await Promise.all([first, second])).toEqual([42, 42]);
    const again = flights.run('a', () => Promise.resolve(1));
    expect(again).not.toBe(first);
    expect(await again).toBe(1);
  });

  it('lets a failed flight go, so the next call tries again', async () => {
    const flights = new SingleFlight<number>();
    await expect(flights.run('a', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await flights.run('a', () => Promise.resolve(2))).toBe(2);
  });
});
