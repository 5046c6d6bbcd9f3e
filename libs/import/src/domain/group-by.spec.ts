import { random } from '../../../../test/support/random.js';
import { groupBy, groupingSteps, mappingSteps, PlaceGroups, sortingSteps } from './group-by.js';
import { ROWS_PER_TURN, runSteps } from './turns.js';

describe('groupBy', () => {
  const items = Array.from({ length: 2 * ROWS_PER_TURN + 5 }, (_, index) => ({ index, key: `k${index % 7}` }));

  it('groups in the items order, groups in order of first appearance', () => {
    const groups = groupBy(items, (item) => item.key);
    expect([...groups.keys()]).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6']);
    expect(groups.get('k3')?.map((item) => item.index)).toEqual(items.filter((item) => item.index % 7 === 3).map((item) => item.index));
  });

  it('as steps, stops every ROWS_PER_TURN items and gives the same groups', () => {
    const steps = groupingSteps(items, (item) => item.key);
    let stops = 0;
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) {
        expect(step.value).toEqual(groupBy(items, (item) => item.key));
        break;
      }
      stops += 1;
    }
    expect(stops).toBe(2);
  });
});

describe('PlaceGroups', () => {
  it('groups places by two keys as groupBy does by the two joined: each in its order, groups in order of first appearance', () => {
    const next = random(9);
    const symbols = ['AAPL', 'MSFT', 'A|B', 'A', 'B|C'];
    const items = Array.from({ length: 3 * ROWS_PER_TURN + 11 }, () => ({ symbol: symbols[Math.floor(next() * symbols.length)], day: `2024-01-0${1 + Math.floor(next() * 5)}` }));
    // Some places left out, the rest in a shuffled order (as lots in line order, or only the closing sales).
    const places = items.map((_, place) => place).filter((place) => place % 5 !== 2);
    for (let index = places.length - 1; index > 0; index -= 1) {
      const other = Math.floor(next() * (index + 1));
      [places[index], places[other]] = [places[other], places[index]];
    }
    let stops = 0;
    const steps = PlaceGroups.grouping(places, (place) => items[place].symbol, (place) => items[place].day, 1000);
    let step = steps.next();
    for (; !step.done; step = steps.next()) stops += 1;
    const groups = step.value;
    expect(stops).toBe(2 * Math.floor((places.length - 1) / 1000));
    // A separator inside a key cannot join two groups: 'A|B' + '2024-…' is not 'A' + 'B|2024-…'.
    const expected = groupBy(places, (place) => JSON.stringify([items[place].symbol, items[place].day]));
    expect(groups.count).toBe(expected.size);
    [...expected.entries()].forEach(([key, members], id) => {
      const [symbol, day] = JSON.parse(key) as [string, string];
      expect(groups.idOf(symbol, day)).toBe(id);
      expect(groups.placesOf(id)).toEqual(members);
    });
    expect(groups.idOf('AAPL', '2023-12-31')).toBeUndefined();
    expect(groups.idOf('NONE', '2024-01-01')).toBeUndefined();
    expect(runSteps(PlaceGroups.grouping([], String, String)).count).toBe(0);
  });
});

describe('sortingSteps', () => {
  const byDay = (a: { day: number }, b: { day: number }) => a.day - b.day;
  /** Items with days drawn from `days` values, each item its own object (so a changed order of equal days shows). */
  const itemsOf = (days: number[]) => days.map((day, index) => ({ day, index }));

  it('gives what a stable sort gives: in order, in strictly reverse order, reversed with equal neighbours, and mixed', () => {
    const next = random(5);
    const count = 3 * ROWS_PER_TURN + 7;
    const cases = [
      Array.from({ length: count }, (_, index) => Math.floor(index / 3)),
      Array.from({ length: count }, (_, index) => count - index),
      Array.from({ length: count }, (_, index) => Math.floor((count - index) / 2)),
      Array.from({ length: count }, () => Math.floor(next() * 50)),
      [],
      [1],
    ];
    for (const days of cases) {
      const items = itemsOf(days);
      const sorted = runSteps(sortingSteps(items, byDay));
      expect(sorted).toEqual([...items].sort(byDay));
      expect(sorted).not.toBe(items);
    }
  });

  it('stops every ROWS_PER_TURN items while it finds them in order', () => {
    const items = itemsOf(Array.from({ length: 2 * ROWS_PER_TURN + 5 }, (_, index) => index));
    const steps = sortingSteps(items, byDay);
    let stops = 0;
    while (steps.next().done !== true) stops += 1;
    expect(stops).toBe(2);
  });
});

describe('mappingSteps', () => {
  it('gives what map gives, stopping every ROWS_PER_TURN items', () => {
    const items = Array.from({ length: 2 * ROWS_PER_TURN + 5 }, (_, index) => index);
    const steps = mappingSteps(items, (item) => `#${item}`);
    let stops = 0;
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) {
        expect(step.value).toEqual(items.map((item) => `#${item}`));
        break;
      }
      stops += 1;
    }
    expect(stops).toBe(2);
    expect(runSteps(mappingSteps([], (item) => item))).toEqual([]);
  });
});
