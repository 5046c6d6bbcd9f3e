import { timestampWithMicroseconds } from './timestamps.js';

describe('timestampWithMicroseconds', () => {
  it('is the UTC wall time with six fractional digits and no zone suffix', () => {
    const stamp = timestampWithMicroseconds(new Date('2024-06-28T14:03:05.123Z'));
    expect(stamp).toMatch(/^2024-06-28T14:03:05\.123\d{3}$/);
  });
});
