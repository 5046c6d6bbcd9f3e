import { random } from '../testing/random.js';
import { groupBy, groupingSteps, sortingSteps } from './group-by.js';
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
