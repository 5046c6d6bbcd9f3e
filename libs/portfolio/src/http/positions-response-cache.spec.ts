import { FixedClock } from '@app/calendar/testing';
import { ReportVersions } from '@app/trades';
import { HoldingsChanges } from '../application/holdings-changes.js';
import { PositionsResponseCache } from './positions-response-cache.js';

class SettableVersions extends ReportVersions {
  version = 1;
  current(): Promise<number> {
    return Promise.resolve(this.version);
  }
}

describe('PositionsResponseCache', () => {
  const clock = new FixedClock('2025-11-19T15:00:00Z');
  const versions = new SettableVersions();
  const changes = new HoldingsChanges();
  const cache = new PositionsResponseCache(versions, clock, changes);
  let computed = 0;
  const read = (freshForMs = 60_000, userId = 1) =>
    cache.response(userId, '/api/positions', async () => ({ body: { n: (computed += 1) }, freshForMs })).then((r) => JSON.parse(r.json.toString()).n as number);

  afterAll(() => cache.onModuleDestroy());

  it('reuses an answer for at most 30 s and never past its oldest price turning stale', async () => {
    const first = await read();
    expect(await read()).toBe(first);
    clock.set('2025-11-19T15:00:29Z');
    expect(await read()).toBe(first);
    clock.set('2025-11-19T15:00:31Z');
    const second = await read(5_000);
    expect(second).toBeGreaterThan(first);
    clock.set('2025-11-19T15:00:35Z');
    expect(await read()).toBe(second);
    clock.set('2025-11-19T15:00:36Z');
    expect(await read()).toBeGreaterThan(second);
  });

  it('does not keep an answer with prices pending, and drops one when the imports or the holdings change', async () => {
    versions.version += 1;
    const pending = await read(0);
    expect(await read()).toBeGreaterThan(pending);
    const kept = await read();
    expect(await read()).toBe(kept);
    versions.version += 1;
    const afterImport = await read();
    expect(afterImport).toBeGreaterThan(kept);
    changes.changed(2);
    expect(await read()).toBe(afterImport);
    changes.changed(1);
    expect(await read()).toBeGreaterThan(afterImport);
  });
});
