import { FixedClock } from './fixed-clock.js';

describe('FixedClock', () => {
  it('refuses a zoneless string, which the server would read in its own TZ', () => {
    expect(() => new FixedClock('2025-06-10T09:30:00')).toThrow('needs an instant with a zone');
  });

  it('returns copies, so a caller cannot move the clock by mutating the Date', () => {
    const clock = new FixedClock('2025-06-10T13:30:00-04:00');
    clock.now().setTime(0);
    expect(clock.now().toISOString()).toBe('2025-06-10T17:30:00.000Z');
  });
});
