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

/**
 * The pieces of work waiting for their next slice, in the order they stopped. An import runs several
 * at once (the keying, the matching, the writer feeding the database): each stopped when due, and all
 * of them used to go on in the same turn of the loop (each `setImmediate` of one check phase), so the
 * loop went 20–30 ms between turns, and a garbage collection on top made the health probes' 50 ms.
 * They now go on one per turn, longest waiting first (none waits for ever behind another).
 */
const waiting: (() => void)[] = [];

function takeTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (waiting.length === 1) setImmediate(resumeNext);
  });
}

/** Gives the longest waiting piece of work its slice (it runs once this callback returns), and the next one the loop's next turn. */
function resumeNext(): void {
  const next = waiting.shift();
  lastTurn = performance.now();
  if (waiting.length > 0) setImmediate(resumeNext);
  next?.();
}
