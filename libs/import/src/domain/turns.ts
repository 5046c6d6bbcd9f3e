/**
 * Long CPU work written once, run either at a stretch or in slices. A step generator `yield`s where
 * it may be interrupted; given `Turns`, the caller's `pause` runs at each of those points (an import
 * gives the event loop a turn there, so other requests are answered while a large file is read).
 */
/**
 * Rows read, keyed or matched between two places where the work may stop (`yield`): a hundred rows
 * take 0.3–1 ms on warm code, several times that on cold code. The caller's `pause` decides whether
 * the loop gets a turn there (the service's: when the work has run 10 ms since the last turn,
 * @app/shared `turnIfDue`), so slices are as long on cold code as on warm.
 */
export const ROWS_PER_TURN = 100;

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
