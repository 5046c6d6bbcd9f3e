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
 * `items.map(map)` as steps (turns.ts), stopping every ROWS_PER_TURN items: the open lots of a symbol
 * bought for years and sold by the lot (tens of thousands) took the event loop 30 ms and more at once.
 */
export function* mappingSteps<T, U>(items: readonly T[], map: (item: T) => U): Steps<U[]> {
  const mapped: U[] = [];
  for (let index = 0; index < items.length; index += 1) {
    if (index > 0 && index % ROWS_PER_TURN === 0) yield;
    mapped.push(map(items[index]));
  }
  return mapped;
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

/**
 * Places (`0 … count-1`) grouped by two keys (a symbol and a day), each group's places in their
 * order, groups numbered in order of first appearance (`groupBy`'s order). A group is found by its
 * keys through a map per first key, and its places are in one array for all: an import's lots and
 * closing sales grouped by symbol and day (hundreds of thousands of groups at a million rows) were a
 * `symbol|day` string, a map entry and an array for each, about 130 MB at the start of matching.
 */
export class PlaceGroups {
  private constructor(
    private readonly ids: Map<string, Map<string, number>>,
    /** Where each group's places start in `places`; one more entry, for the end of the last group. */
    private readonly starts: Int32Array,
    private readonly places: Int32Array,
  ) {}

  /** The places grouped; steps (turns.ts), stopping every `sliceSize` places. */
  static *grouping(places: readonly number[], firstKey: (place: number) => string, secondKey: (place: number) => string, sliceSize: number = ROWS_PER_TURN): Steps<PlaceGroups> {
    const ids = new Map<string, Map<string, number>>();
    const groupOf = new Int32Array(places.length);
    const sizes: number[] = [];
    for (let index = 0; index < places.length; index += 1) {
      if (index > 0 && index % sliceSize === 0) yield;
      const place = places[index];
      const first = firstKey(place);
      let byFirst = ids.get(first);
      if (byFirst === undefined) ids.set(first, (byFirst = new Map()));
      const second = secondKey(place);
      let id = byFirst.get(second);
      if (id === undefined) {
        id = sizes.length;
        byFirst.set(second, id);
        sizes.push(0);
      }
      groupOf[index] = id;
      sizes[id] += 1;
    }
    const starts = new Int32Array(sizes.length + 1);
    for (let id = 0; id < sizes.length; id += 1) starts[id + 1] = starts[id] + sizes[id];
    const filled = starts.slice(0, sizes.length);
    const grouped = new Int32Array(places.length);
    for (let index = 0; index < places.length; index += 1) {
      if (index > 0 && index % sliceSize === 0) yield;
      grouped[filled[groupOf[index]]++] = places[index];
    }
    return new PlaceGroups(ids, starts, grouped);
  }

  /** How many groups there are. */
  get count(): number {
    return this.starts.length - 1;
  }

  /** The group of these keys, if there is one. */
  idOf(firstKey: string, secondKey: string): number | undefined {
    return this.ids.get(firstKey)?.get(secondKey);
  }

  /** A group's places, in their order. */
  placesOf(id: number): number[] {
    const places: number[] = [];
    for (let at = this.starts[id], end = this.starts[id + 1]; at < end; at += 1) places.push(this.places[at]);
    return places;
  }
}
