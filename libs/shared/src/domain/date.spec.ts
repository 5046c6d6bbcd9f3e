import {
  addDays,
  compareDates,
  dayOfWeek,
  daysBetween,
  isIsoDate,
  isWeekend,
  lastDayOfMonth,
  makeIsoDate,
  monthOf,
  parseBrokerDate,
  parseIsoDate,
  parseUsDate,
  weekStart,
} from './date.js';

describe('calendar dates', () => {
  it('validates YYYY-MM-DD against the real calendar', () => {
    expect([isIsoDate('2024-02-29'), isIsoDate('2023-02-29'), isIsoDate('2024-13-01'), isIsoDate('2024-1-01')]).toEqual([
      true,
      false,
      false,
      false,
    ]);
    expect(parseIsoDate(' 2024-06-30 ')).toBe('2024-06-30');
    expect(parseIsoDate('2024-06-31')).toBeUndefined();
  });

  it('reads US dates', () => {
    expect(parseUsDate('06/28/2024')).toBe('2024-06-28');
    expect(parseUsDate('6/8/2024')).toBe('2024-06-08');
    expect(parseUsDate('6/8/24')).toBe('2024-06-08');
    expect(parseUsDate('13/45/2024')).toBeUndefined();
    expect(parseUsDate('02/30/2024')).toBeUndefined();
    expect(parseUsDate('2024-06-28')).toBeUndefined();
  });

  it('reads broker dates, keeping the first of "as of" dates', () => {
    expect(parseBrokerDate('06/24/2024 as of 06/21/2024')).toEqual({ date: '2024-06-24', asOf: '2024-06-21' });
    expect(parseBrokerDate('04/19/2024  AS OF  04/18/2024')).toEqual({ date: '2024-04-19', asOf: '2024-04-18' });
    expect(parseBrokerDate('03/13/2024')).toEqual({ date: '2024-03-13', asOf: null });
    expect(parseBrokerDate('2024-03-13')).toEqual({ date: '2024-03-13', asOf: null });
    expect(parseBrokerDate('03/13/2024 as of 13/45/2024')).toBeUndefined();
    expect(parseBrokerDate('03/13/2024 as')).toBeUndefined();
    expect(parseBrokerDate('')).toBeUndefined();
  });

  it('counts calendar days across months, leap days and DST changes', () => {
    expect(daysBetween('2024-03-07', '2024-05-08')).toBe(62);
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2);
    expect(daysBetween('2024-03-09', '2024-03-11')).toBe(2);
    expect(daysBetween('2024-05-08', '2024-05-07')).toBe(-1);
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
    expect(() => daysBetween('06/01/2024', '2024-06-02')).toThrow(RangeError);
  });

  it('knows months, weekdays and Monday-based weeks', () => {
    expect(monthOf('2024-06-30')).toBe('2024-06');
    expect(dayOfWeek('2024-03-07')).toBe(4);
    expect(dayOfWeek('2024-03-03')).toBe(0);
    expect(dayOfWeek('2024-03-02')).toBe(6);
    expect(weekStart('2024-03-03')).toBe('2024-02-26');
    expect(weekStart('2024-03-04')).toBe('2024-03-04');
    expect(weekStart('2024-06-28')).toBe('2024-06-24');
    expect([compareDates('2024-01-02', '2024-01-10'), compareDates('2024-01-10', '2024-01-10')]).toEqual([-1, 0]);
    expect(['2024-03-01', '2024-03-02', '2024-03-03', '2024-03-04'].map(isWeekend)).toEqual([false, true, true, false]);
  });

  it('builds dates from their parts, and knows the last day of a month', () => {
    expect(makeIsoDate(2024, 7, 3)).toBe('2024-07-03');
    expect(makeIsoDate(999, 1, 1)).toBe('0999-01-01');
    expect([lastDayOfMonth(2024, 2), lastDayOfMonth(2023, 2), lastDayOfMonth(2024, 12), lastDayOfMonth(2024, 4)]).toEqual([
      '2024-02-29',
      '2023-02-28',
      '2024-12-31',
      '2024-04-30',
    ]);
  });
});
