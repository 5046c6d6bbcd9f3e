import { TradingCalendar } from '@app/calendar';
import { eodTradingDateDue } from '../domain/eod-schedule.js';

const calendar = new TradingCalendar();
const GRACE = 10 * 60_000;
const due = (instant: string) => eodTradingDateDue(new Date(instant), calendar, GRACE);

describe('eodTradingDateDue', () => {
  it('is due for today from the grace period after the close', () => {
    // Wednesday 2025-11-19, close 16:00 EST = 21:00Z
    expect(due('2025-11-19T21:09:59Z')).toBeNull();
    expect(due('2025-11-19T21:10:00Z')).toBe('2025-11-19');
    expect(due('2025-11-20T04:59:00Z')).toBe('2025-11-19'); // 23:59 New York
  });

  it('is not due while the market trades', () => {
    expect(due('2025-11-19T14:30:00Z')).toBeNull(); // 09:30 EST, the open
    expect(due('2025-11-19T18:00:00Z')).toBeNull();
  });

  it('before the open, the previous trading day is due (a service that was down at the close catches up)', () => {
    expect(due('2025-11-20T13:00:00Z')).toBe('2025-11-19'); // Thursday 08:00 EST
    expect(due('2025-11-24T14:29:59Z')).toBe('2025-11-21'); // Monday before the open → Friday
  });

  it('on weekends and holidays the last trading day is due', () => {
    expect(due('2025-11-22T17:00:00Z')).toBe('2025-11-21'); // Saturday
    expect(due('2025-11-27T17:00:00Z')).toBe('2025-11-26'); // Thanksgiving
  });

  it('follows early closes (13:00 New York)', () => {
    // Friday 2025-11-28 closes at 13:00 EST = 18:00Z
    expect(due('2025-11-28T18:05:00Z')).toBeNull();
    expect(due('2025-11-28T18:10:00Z')).toBe('2025-11-28');
  });

  it('uses New York dates whatever the UTC date (summer time too)', () => {
    // 2025-07-01 close 16:00 EDT = 20:00Z; 01:00Z next day is still July 1 in New York
    expect(due('2025-07-02T01:00:00Z')).toBe('2025-07-01');
  });
});
