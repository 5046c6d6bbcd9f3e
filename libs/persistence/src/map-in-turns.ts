import { turnIfDue } from '@app/shared';

/** Items converted between two checks of whether the event loop is due a turn. */
const ITEMS_PER_CHECK = 100;

/**
 * `items.map(convert)` with a turn of the event loop whenever the work has run 10 ms since the last
 * (@app/shared `turnIfDue`): for the adapters' long conversions (an account's 100,000s of rows or
 * trades), which other requests would otherwise wait behind. `convert` sees the items in order, one at
 * a time.
 */
export async function mapInTurns<T, U>(items: readonly T[], convert: (item: T) => U): Promise<U[]> {
  const converted: U[] = [];
  for (const [index, item] of items.entries()) {
    if (index > 0 && index % ITEMS_PER_CHECK === 0) await turnIfDue();
    converted.push(convert(item));
  }
  return converted;
}
