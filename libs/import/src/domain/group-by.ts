import { ROWS_PER_TURN, runSteps, type Steps } from './turns.js';

/** Items grouped by a key, each group in the items' order; groups in order of first appearance. */
export function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  return runSteps(groupingSteps(items, keyOf));
}

/**
 * `groupBy` as steps (turns.ts), stopping every ROWS_PER_TURN items: grouping an import's 100,000s of
 * rows by symbol and day takes a tenth of a second and more, which other requests would wait behind.
 */
export function* groupingSteps<T>(items: readonly T[], keyOf: (item: T) => string): Steps<Map<string, T[]>> {
  const groups = new Map<string, T[]>();
  for (let index = 0; index < items.length; index += 1) {
    if (index > 0 && index % ROWS_PER_TURN === 0) yield;
    const item = items[index];
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) {
      group.push(item);
    } else {
      groups.set(key, [item]);
    }
  }
  return groups;
}

/**
 * `[...items].sort(compare)` as steps (turns.ts), stopping every `sliceSize` items: items already in
 * order, or strictly in reverse order (a file that lists the newest first), are found so and copied
 * (reversed) with stops; others are sorted at once, as a sort cannot stop. Sorting a million rows that
 * were in order took the event loop a tenth of a second.
 */
export function* sortingSteps<T>(items: readonly T[], compare: (a: T, b: T) => number, sliceSize: number = ROWS_PER_TURN): Steps<T[]> {
  let ascending = true;
  let descending = true;
  for (let index = 1; index < items.length && (ascending || descending); index += 1) {
    if (index % sliceSize === 0) yield;
    // Equal neighbours are in order; reversed, they would not be where a (stable) sort leaves them.
    if (compare(items[index - 1], items[index]) > 0) ascending = false;
    else descending = false;
  }
  if (ascending) return items.slice();
  if (descending) return items.slice().reverse();
  return items.slice().sort(compare);
}
