import { TURN_EVERY_MS, turnIfDue } from './event-loop-turns.js';

/** Whether the event loop had a turn while `promise` was awaited (a setImmediate queued before it ran). */
async function hadTurn(promise: () => Promise<void>): Promise<boolean> {
  let turned = false;
  setImmediate(() => {
    turned = true;
  });
  await promise();
  return turned;
}

function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // CPU work that does not let the loop turn
  }
}

describe('turnIfDue', () => {
  it('gives the event loop a turn once the work has run TURN_EVERY_MS since the last, and not before', async () => {
    busyFor(TURN_EVERY_MS + 2);
    const beforeTurn = performance.now();
    expect(await hadTurn(turnIfDue)).toBe(true);
    const turned = await hadTurn(turnIfDue);
    // Right after a turn nothing is due: checked when the turn surely came less than TURN_EVERY_MS
    // before the second call (it came after `beforeTurn`), not when this machine stalled in between.
    if (performance.now() - beforeTurn < TURN_EVERY_MS) expect(turned).toBe(false);
    busyFor(TURN_EVERY_MS + 2);
    expect(await hadTurn(turnIfDue)).toBe(true);
  });

  it('lets several pieces of work that stop go on one per turn of the loop, in turn', async () => {
    // A timer ticks once per turn of the loop (its phase comes before the check phase's immediates).
    const events: string[] = [];
    let working = 2;
    const tick = () => {
      events.push('turn');
      if (working > 0) setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
    const work = async (name: string) => {
      for (let slice = 0; slice < 3; slice += 1) {
        busyFor(TURN_EVERY_MS + 1);
        events.push(name);
        await turnIfDue();
      }
      working -= 1;
    };
    await Promise.all([work('a'), work('b')]);
    const slices = events.filter((event) => event !== 'turn');
    expect(slices).toEqual(['a', 'b', 'a', 'b', 'a', 'b']);
    // Both start at once (nothing was due yet); from then on, never two slices without a turn of the loop between them.
    expect(events.slice(0, 2)).toEqual(['a', 'b']);
    for (const [index, event] of events.entries()) {
      if (index > 2 && event !== 'turn') expect(events[index - 1]).toBe('turn');
    }
  });
});
