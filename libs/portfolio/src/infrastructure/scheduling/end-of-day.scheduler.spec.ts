import { Logger } from '@nestjs/common';
import type { EndOfDaySnapshots } from '../../application/end-of-day-snapshots.service.js';
import { EndOfDayScheduler } from './end-of-day.scheduler.js';

/** A run of the end-of-day job that ends when the test says so, telling what the scheduler asked of it. */
class HeldRuns {
  readonly stops: (() => boolean)[] = [];
  private finish: (() => void) | undefined;

  runDue(stopRequested: () => boolean): Promise<null> {
    this.stops.push(stopRequested);
    return new Promise((resolve) => (this.finish = () => resolve(null)));
  }

  end(): void {
    this.finish?.();
  }
}

describe('the end-of-day scheduler', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('runs one job at a time, and on shutdown starts none and waits for the one under way, told to stop', async () => {
    const runs = new HeldRuns();
    const scheduler = new EndOfDayScheduler(runs as unknown as EndOfDaySnapshots);
    const first = scheduler.tick();
    await scheduler.tick(); // the first is still under way
    expect(runs.stops).toHaveLength(1);
    expect(runs.stops[0]()).toBe(false);

    let shutDown = false;
    const shutdown = scheduler.beforeApplicationShutdown().then(() => (shutDown = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs.stops[0]()).toBe(true);
    expect(shutDown).toBe(false);

    runs.end();
    await Promise.all([first, shutdown]);
    expect(shutDown).toBe(true);
    await scheduler.tick();
    expect(runs.stops).toHaveLength(1);
  });

  it('shuts down at once when no job is under way', async () => {
    const runs = new HeldRuns();
    const scheduler = new EndOfDayScheduler(runs as unknown as EndOfDaySnapshots);
    await scheduler.beforeApplicationShutdown();
    await scheduler.tick();
    expect(runs.stops).toHaveLength(0);
  });
});
