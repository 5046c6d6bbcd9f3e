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
    expect(await hadTurn(turnIfDue)).toBe(true);
    const afterTurn = performance.now();
    const turned = await hadTurn(turnIfDue);
    // Right after a turn nothing is due (unless this machine stalled for the whole budget in between).
    if (performance.now() - afterTurn < TURN_EVERY_MS) expect(turned).toBe(false);
    busyFor(TURN_EVERY_MS + 2);
    expect(await hadTurn(turnIfDue)).toBe(true);
  });
});
