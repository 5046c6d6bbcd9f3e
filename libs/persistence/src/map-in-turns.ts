import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * `items.map(convert)` with a turn of the event loop every `perTurn` items: for the adapters' long
 * conversions (an account's 100,000s of rows or trades), which other requests would otherwise wait
 * behind. `convert` sees the items in order, one at a time.
 */
export async function mapInTurns<T, U>(items: readonly T[], perTurn: number, convert: (item: T) => U): Promise<U[]> {
  const converted: U[] = [];
  for (const [index, item] of items.entries()) {
    if (index > 0 && index % perTurn === 0) await nextTurn();
    converted.push(convert(item));
  }
  return converted;
}
