import { groupBy, groupingSteps } from './group-by.js';
import { ROWS_PER_TURN } from './turns.js';

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
