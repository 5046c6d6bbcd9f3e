/**
 * Long CPU work written once, run either at a stretch or in slices. A step generator `yield`s where
 * it may be interrupted; given `Turns`, the caller's `pause` runs at each of those points (an import
 * gives the event loop a turn there, so other requests are answered while a large file is read).
 */
/**
 * Rows read or keyed between two turns: reading a lot row takes 7–8 µs, keying one 3 µs, so a turn
 * comes every 15 ms or so (every 5,000 rows, reading held requests up to ~40 ms, more with a
 * collection in between).
 */
export const ROWS_PER_TURN = 2_000;

export type Steps<T> = Generator<void, T, void>;

export interface Turns {
  /** Resolves when the work may go on. */
  readonly pause: () => Promise<void>;
}

/** Runs the steps at a stretch. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Runs the steps with the caller's pause between them. */
export async function runStepsWithTurns<T>(steps: Steps<T>, turns: Turns): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await turns.pause();
  }
}

/** Either of the above: a promise exactly when turns are given. */
export function runStepsMaybeWithTurns<T>(steps: Steps<T>, turns: Turns | undefined): T | Promise<T> {
  return turns === undefined ? runSteps(steps) : runStepsWithTurns(steps, turns);
}
