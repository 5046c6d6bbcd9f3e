import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Long CPU work on the event loop (an import's reading, keying, matching and writing of 100,000s of
 * rows) stops now and then for a turn of the loop, so other requests and the health probes are
 * answered meanwhile. It checks often (every hundred rows or so) and stops when it has run this long
 * since the loop last had a turn: a slice is then about as long on cold code (an instance's first
 * import, before the JIT compiler has made it fast: several times slower) as on warm code, where a
 * fixed number of rows made slices of 15 ms warm and 50–200 ms cold.
 */
export const TURN_EVERY_MS = 10;

/** When the loop last had a turn that this module gave it. */
let lastTurn = performance.now();

/** A turn of the event loop when the work has run TURN_EVERY_MS since the last one; else at once. */
export function turnIfDue(): Promise<void> {
  return performance.now() - lastTurn < TURN_EVERY_MS ? NOTHING_DUE : takeTurn();
}

const NOTHING_DUE = Promise.resolve();

async function takeTurn(): Promise<void> {
  await nextTurn();
  lastTurn = performance.now();
}
