import { turnIfDue } from '@app/shared';

/** Items converted between two checks of whether the event loop is due a turn. */
const ITEMS_PER_CHECK = 100;

/**
 * `items.forEach(visit)` with a turn of the event loop whenever the work has run 10 ms since the last
 * (@app/shared `turnIfDue`): for the adapters' long passes over what a query returned (an account's
 * 100,000s of rows, trades or keys), which other requests would otherwise wait behind. `visit` sees
 * the items in order, one at a time.
 */
export async function eachInTurns<T>(items: readonly T[], visit: (item: T) => void): Promise<void> {
  // Indexed, not `items.entries()`: across an await, each step's [index, item] pair is made and dropped.
  for (let index = 0; index < items.length; index += 1) {
    if (index > 0 && index % ITEMS_PER_CHECK === 0) await turnIfDue();
    visit(items[index]);
  }
}

/** `items.map(convert)` with turns of the event loop, as `eachInTurns`. */
export async function mapInTurns<T, U>(items: readonly T[], convert: (item: T) => U): Promise<U[]> {
  const converted: U[] = [];
  await eachInTurns(items, (item) => converted.push(convert(item)));
  return converted;
}
