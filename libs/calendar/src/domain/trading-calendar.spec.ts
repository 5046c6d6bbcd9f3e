import { FixedClock } from '../testing/fixed-clock.js';
import { parseYear } from './iso-date.js';
import { TradingCalendar } from './trading-calendar.js';
import { InvalidDateError, InvalidMonthError, InvalidYearError, MAX_SUPPORTED_YEAR, MIN_SUPPORTED_YEAR } from './trading-calendar.errors.js';

// Instants are written in UTC with the New York wall-clock time beside them, so a test never relies
// on the code under test to convert. New York is UTC-5 in winter (EST) and UTC-4 in summer (EDT).

const calendar = new TradingCalendar();
const statusAt = (instant: string) => calendar.marketStatusAt(new Date(instant));

describe('marketStatusAt on a regular trading day', () => {
  it.each([
    // Tuesday 2025-06-10, EDT (UTC-4)
    ['03:59 NY', '2025-06-10T07:59:00Z', 'closed'],
    ['04:00 NY', '2025-06-10T08:00:00Z', 'pre-market'],
    ['09:29 NY', '2025-06-10T13:29:00Z', 'pre-market'],
    ['09:29:59 NY', '2025-06-10T13:29:59Z', 'pre-market'],
    ['09:30 NY', '2025-06-10T13:30:00Z', 'open'],
    ['15:59 NY', '2025-06-10T19:59:00Z', 'open'],
    ['15:59:59.999 NY', '2025-06-10T19:59:59.999Z', 'open'],
    ['16:00 NY', '2025-06-10T20:00:00Z', 'after-hours'],
    ['19:59 NY', '2025-06-10T23:59:00Z', 'after-hours'],
    ['20:00 NY (already the next day in UTC)', '2025-06-11T00:00:00Z', 'closed'],
    ['00:00 NY', '2025-06-10T04:00:00Z', 'closed'],
  ])('summer %s is %s', (_label, instant, expected) => {
    expect(statusAt(instant)).toBe(expected);
  });

  it.each([
    // Tuesday 2025-01-14, EST (UTC-5)
    ['03:59 NY', '2025-01-14T08:59:00Z', 'closed'],
    ['04:00 NY', '2025-01-14T09:00:00Z', 'pre-market'],
    ['09:29 NY', '2025-01-14T14:29:00Z', 'pre-market'],
    ['09:30 NY', '2025-01-14T14:30:00Z', 'open'],
    ['15:59 NY', '2025-01-14T20:59:00Z', 'open'],
    ['16:00 NY', '2025-01-14T21:00:00Z', 'after-hours'],
    ['19:59 NY', '2025-01-15T00:59:00Z', 'after-hours'],
    ['20:00 NY', '2025-01-15T01:00:00Z', 'closed'],
  ])('winter %s is %s', (_label, instant, expected) => {
    expect(statusAt(instant)).toBe(expected);
  });
});

describe('marketStatusAt on early-close days (13:00)', () => {
  it.each([
    // Friday 2025-11-28, day after Thanksgiving, EST
    ['2025-11-28 09:30 NY', '2025-11-28T14:30:00Z', 'open'],
    ['2025-11-28 12:59 NY', '2025-11-28T17:59:00Z', 'open'],
    ['2025-11-28 13:00 NY', '2025-11-28T18:00:00Z', 'after-hours'],
    ['2025-11-28 15:00 NY', '2025-11-28T20:00:00Z', 'after-hours'],
    ['2025-11-28 19:59 NY', '2025-11-29T00:59:00Z', 'after-hours'],
    ['2025-11-28 20:00 NY', '2025-11-29T01:00:00Z', 'closed'],
    // Thursday 2025-07-03, EDT
    ['2025-07-03 12:59 NY', '2025-07-03T16:59:00Z', 'open'],
    ['2025-07-03 13:00 NY', '2025-07-03T17:00:00Z', 'after-hours'],
    // Tuesday 2024-12-24, Christmas Eve, EST
    ['2024-12-24 12:59 NY', '2024-12-24T17:59:00Z', 'open'],
    ['2024-12-24 13:00 NY', '2024-12-24T18:00:00Z', 'after-hours'],
  ])('%s is %s', (_label, instant, expected) => {
    expect(statusAt(instant)).toBe(expected);
  });
});

describe('marketStatusAt on days the market does not open', () => {
  it.each([
    ['Independence Day 2025-07-04 05:00 NY', '2025-07-04T09:00:00Z'],
    ['Independence Day 2025-07-04 10:00 NY', '2025-07-04T14:00:00Z'],
    ['Independence Day 2025-07-04 17:00 NY', '2025-07-04T21:00:00Z'],
    ['Good Friday 2025-04-18 12:00 NY', '2025-04-18T16:00:00Z'],
    ['observed Independence Day 2026-07-03 10:00 NY', '2026-07-03T14:00:00Z'],
    ['Saturday 2025-06-14 10:00 NY', '2025-06-14T14:00:00Z'],
    ['Sunday 2025-06-15 05:00 NY', '2025-06-15T09:00:00Z'],
    ['Sunday 2025-06-15 22:00 NY (Monday in UTC)', '2025-06-16T02:00:00Z'],
    ['Friday 2025-06-13 21:00 NY (Saturday in UTC)', '2025-06-14T01:00:00Z'],
  ])('%s is closed', (_label, instant) => {
    expect(statusAt(instant)).toBe('closed');
  });

  it('opens pre-market on Monday by the New York clock, not by UTC', () => {
    expect(statusAt('2025-06-16T07:59:00Z')).toBe('closed'); // 03:59 NY Monday
    expect(statusAt('2025-06-16T08:00:00Z')).toBe('pre-market'); // 04:00 NY Monday
  });
});

describe('daylight-saving changes', () => {
  it('spring forward, Sunday 2025-03-09: closed either side of the jump, dated that Sunday', () => {
    expect(calendar.dateAt(new Date('2025-03-09T06:59:00Z'))).toBe('2025-03-09'); // 01:59 EST
    expect(calendar.dateAt(new Date('2025-03-09T07:00:00Z'))).toBe('2025-03-09'); // 03:00 EDT
    expect(statusAt('2025-03-09T06:59:00Z')).toBe('closed');
    expect(statusAt('2025-03-09T07:00:00Z')).toBe('closed');
    expect(statusAt('2025-03-09T14:30:00Z')).toBe('closed');
  });

  it('Monday 2025-03-10 keeps New York hours on EDT (UTC-4)', () => {
    expect(statusAt('2025-03-10T07:59:00Z')).toBe('closed'); // 03:59 EDT
    expect(statusAt('2025-03-10T08:00:00Z')).toBe('pre-market'); // 04:00 EDT
    expect(statusAt('2025-03-10T13:29:00Z')).toBe('pre-market'); // 09:29 EDT
    expect(statusAt('2025-03-10T13:30:00Z')).toBe('open'); // 09:30 EDT
    expect(statusAt('2025-03-10T19:59:00Z')).toBe('open'); // 15:59 EDT
    expect(statusAt('2025-03-10T20:00:00Z')).toBe('after-hours'); // 16:00 EDT
    expect(statusAt('2025-03-10T23:59:00Z')).toBe('after-hours'); // 19:59 EDT
    expect(statusAt('2025-03-11T00:00:00Z')).toBe('closed'); // 20:00 EDT
  });

  it('the Friday before, 2025-03-07, still ran on EST (UTC-5)', () => {
    expect(statusAt('2025-03-07T13:30:00Z')).toBe('pre-market'); // 08:30 EST
    expect(statusAt('2025-03-07T14:29:00Z')).toBe('pre-market'); // 09:29 EST
    expect(statusAt('2025-03-07T14:30:00Z')).toBe('open'); // 09:30 EST
  });

  it('fall back, Sunday 2025-11-02: closed through the repeated hour', () => {
    expect(calendar.dateAt(new Date('2025-11-02T05:30:00Z'))).toBe('2025-11-02'); // 01:30 EDT
    expect(calendar.dateAt(new Date('2025-11-02T06:30:00Z'))).toBe('2025-11-02'); // 01:30 EST
    expect(statusAt('2025-11-02T05:30:00Z')).toBe('closed');
    expect(statusAt('2025-11-02T06:30:00Z')).toBe('closed');
    expect(statusAt('2025-11-02T14:30:00Z')).toBe('closed');
  });

  it('Monday 2025-11-03 keeps New York hours on EST (UTC-5)', () => {
    expect(statusAt('2025-11-03T08:59:00Z')).toBe('closed'); // 03:59 EST
    expect(statusAt('2025-11-03T09:00:00Z')).toBe('pre-market'); // 04:00 EST
    expect(statusAt('2025-11-03T13:30:00Z')).toBe('pre-market'); // 08:30 EST
    expect(statusAt('2025-11-03T14:29:00Z')).toBe('pre-market'); // 09:29 EST
    expect(statusAt('2025-11-03T14:30:00Z')).toBe('open'); // 09:30 EST
    expect(statusAt('2025-11-03T20:59:00Z')).toBe('open'); // 15:59 EST
    expect(statusAt('2025-11-03T21:00:00Z')).toBe('after-hours'); // 16:00 EST
    expect(statusAt('2025-11-04T01:00:00Z')).toBe('closed'); // 20:00 EST
  });

  it('the Friday before, 2025-10-31, still ran on EDT (UTC-4)', () => {
    expect(statusAt('2025-10-31T13:30:00Z')).toBe('open'); // 09:30 EDT
    expect(statusAt('2025-10-31T20:00:00Z')).toBe('after-hours'); // 16:00 EDT
  });
});

describe('isTradingDay', () => {
  it.each([
    ['2025-06-10', true, 'a Tuesday'],
    ['2025-11-28', true, 'an early close'],
    ['2025-01-09', true, 'Carter mourning day: ad hoc, not encoded'],
    ['2021-12-31', true, 'Friday before a Saturday New Year'],
    ['2025-06-14', false, 'a Saturday'],
    ['2025-06-15', false, 'a Sunday'],
    ['2025-01-01', false, "New Year's Day"],
    ['2025-04-18', false, 'Good Friday'],
    ['2026-07-03', false, 'observed Independence Day'],
    ['2022-12-26', false, 'observed Christmas'],
  ])('%s → %s (%s)', (date, expected) => {
    expect(calendar.isTradingDay(date)).toBe(expected);
  });

  it('rejects anything but a real YYYY-MM-DD day', () => {
    for (const bad of ['2025-02-30', '2025/01/01', '20250101', '2025-1-1', '', 'today']) {
      expect(() => calendar.isTradingDay(bad)).toThrow(InvalidDateError);
    }
    expect(() => calendar.isTradingDay('2025-13-01')).toThrow("Invalid date: '2025-13-01'. Use YYYY-MM-DD");
    expect(() => calendar.isTradingDay('1990-01-02')).toThrow(InvalidYearError);
  });
});

describe('session hours', () => {
  it('regular day: 09:30:00–16:00:00, bells as instants across DST', () => {
    expect(calendar.sessionOn('2025-03-10')).toEqual({
      date: '2025-03-10',
      open: '09:30:00',
      close: '16:00:00',
      isEarlyClose: false,
      opensAt: new Date('2025-03-10T13:30:00Z'),
      closesAt: new Date('2025-03-10T20:00:00Z'),
    });
    expect(calendar.sessionOn('2025-11-03')?.opensAt).toEqual(new Date('2025-11-03T14:30:00Z'));
    expect(calendar.sessionOn('2025-11-03')?.closesAt).toEqual(new Date('2025-11-03T21:00:00Z'));
  });

  it('early-close day: closes at 13:00:00', () => {
    expect(calendar.sessionHoursOn('2025-11-28')).toEqual({ open: '09:30:00', close: '13:00:00', isEarlyClose: true });
    expect(calendar.sessionOn('2025-11-28')?.closesAt).toEqual(new Date('2025-11-28T18:00:00Z'));
    expect(calendar.isEarlyClose('2025-11-28')).toBe(true);
    expect(calendar.isEarlyClose('2025-11-27')).toBe(false);
  });

  it('non-trading day: no session, displayed hours are the regular ones', () => {
    expect(calendar.sessionOn('2025-12-25')).toBeNull();
    expect(calendar.sessionOn('2025-06-14')).toBeNull();
    expect(calendar.sessionHoursOn('2025-12-25')).toEqual({ open: '09:30:00', close: '16:00:00', isEarlyClose: false });
    // 2026-07-03 is a holiday, not an early close, although July 3 usually is one.
    expect(calendar.sessionHoursOn('2026-07-03').close).toBe('16:00:00');
  });
});

describe('nextTradingDay (strictly after the given day)', () => {
  it.each([
    ['2025-06-10', '2025-06-11', 'Tuesday → Wednesday'],
    ['2025-06-13', '2025-06-16', 'Friday → Monday'],
    ['2025-06-14', '2025-06-16', 'Saturday → Monday'],
    ['2025-06-15', '2025-06-16', 'Sunday → Monday'],
    ['2025-01-17', '2025-01-21', 'over the MLK Day weekend'],
    ['2025-04-17', '2025-04-21', 'over Good Friday'],
    ['2025-07-03', '2025-07-07', 'over Independence Day and the weekend'],
    ['2025-11-26', '2025-11-28', 'over Thanksgiving onto an early close'],
    ['2025-12-25', '2025-12-26', 'from a holiday'],
    ['2024-12-31', '2025-01-02', 'over New Year'],
    ['2025-12-31', '2026-01-02', 'over New Year'],
    ['2026-12-31', '2027-01-04', 'over a Friday New Year and the weekend'],
    ['2021-12-30', '2021-12-31', 'onto the Friday before a Saturday New Year'],
    ['2021-12-31', '2022-01-03', 'over a Saturday New Year'],
  ])('%s → %s (%s)', (date, expected) => {
    expect(calendar.nextTradingDay(date)).toBe(expected);
  });
});

describe('trading-day counts (NYSE rule-based lists; ad-hoc closures such as 2025-01-09 not subtracted)', () => {
  const months = (year: number) => Array.from({ length: 12 }, (_, i) => calendar.tradingDaysInMonth(year, i + 1));

  it('2024: 262 weekdays − 10 holidays = 252', () => {
    expect(months(2024)).toEqual([21, 20, 20, 22, 22, 19, 22, 22, 20, 23, 20, 21]);
    expect(calendar.tradingDaysInYear(2024)).toBe(252);
  });

  it('2025: 261 weekdays − 10 holidays = 251 (the exchange actually traded 250 days: Carter closure)', () => {
    expect(months(2025)).toEqual([21, 19, 21, 21, 21, 20, 22, 21, 21, 23, 19, 22]);
    expect(calendar.tradingDaysInYear(2025)).toBe(251);
  });

  it('2026: 261 weekdays − 10 holidays = 251', () => {
    expect(months(2026)).toEqual([20, 19, 22, 21, 20, 21, 22, 21, 21, 22, 20, 22]);
    expect(calendar.tradingDaysInYear(2026)).toBe(251);
  });

  it('2022: a Saturday New Year leaves 9 holidays, 260 weekdays − 9 = 251', () => {
    expect(calendar.tradingDaysInYear(2022)).toBe(251);
    expect(calendar.tradingDaysInMonth(2022, 1)).toBe(20);
  });

  it('every supported year: its weekdays less the holidays, each month counted on its own', () => {
    for (let year = MIN_SUPPORTED_YEAR; year <= MAX_SUPPORTED_YEAR; year += 1) {
      const holidays = new Set(calendar.holidaysOf(year).filter((entry) => entry.type === 'holiday').map((entry) => entry.date));
      const expected = Array.from({ length: 12 }, () => 0);
      for (let day = new Date(Date.UTC(year, 0, 1)); day.getUTCFullYear() === year; day = new Date(day.getTime() + 86_400_000)) {
        const weekday = day.getUTCDay();
        if (weekday !== 0 && weekday !== 6 && !holidays.has(day.toISOString().slice(0, 10))) expected[day.getUTCMonth()] += 1;
      }
      expect([year, months(year)]).toEqual([year, expected]);
    }
  });

  it('rejects bad months and years', () => {
    expect(() => calendar.tradingDaysInMonth(2025, 0)).toThrow(InvalidMonthError);
    expect(() => calendar.tradingDaysInMonth(2025, 13)).toThrow("Invalid month: '13'. Use a month number from 1 to 12");
    expect(() => calendar.tradingDaysInYear(1990)).toThrow(InvalidYearError);
  });
});

describe('readyFor', () => {
  it('answers for the instant it was readied for as a calendar that was not', () => {
    for (const instant of ['2026-12-24T15:00:00Z', '2026-11-27T19:30:00Z', '2027-01-01T12:00:00Z']) {
      const now = new Date(instant);
      const ready = new TradingCalendar();
      expect(ready.readyFor(now)).toBe(ready);
      expect(ready.metrics(now)).toEqual(new TradingCalendar().metrics(now));
    }
  });
});

describe('holidaysOf', () => {
  it('merges holidays and early closes, sorted, with names', () => {
    expect(calendar.holidaysOf(2026)).toEqual([
      { date: '2026-01-01', name: "New Year's Day", type: 'holiday' },
      { date: '2026-01-19', name: 'Martin Luther King, Jr. Day', type: 'holiday' },
      { date: '2026-02-16', name: "Washington's Birthday", type: 'holiday' },
      { date: '2026-04-03', name: 'Good Friday', type: 'holiday' },
      { date: '2026-05-25', name: 'Memorial Day', type: 'holiday' },
      { date: '2026-06-19', name: 'Juneteenth National Independence Day', type: 'holiday' },
      { date: '2026-07-03', name: 'Independence Day (observed)', type: 'holiday' },
      { date: '2026-09-07', name: 'Labor Day', type: 'holiday' },
      { date: '2026-11-26', name: 'Thanksgiving Day', type: 'holiday' },
      { date: '2026-11-27', name: 'Day after Thanksgiving', type: 'early_close', closeTime: '13:00:00' },
      { date: '2026-12-24', name: 'Christmas Eve', type: 'early_close', closeTime: '13:00:00' },
      { date: '2026-12-25', name: 'Christmas Day', type: 'holiday' },
    ]);
  });

  it('hands out copies: a caller cannot change the calendar', () => {
    const entries = calendar.holidaysOf(2025);
    (entries[0] as { date: string }).date = '2025-01-02';
    entries.pop();
    expect(calendar.holidaysOf(2025)[0].date).toBe('2025-01-01');
    expect(calendar.holidaysOf(2025)).toHaveLength(13);
    expect(calendar.isTradingDay('2025-01-02')).toBe(true);
  });
});

describe('parseYear (query input)', () => {
  it('accepts four digits in range', () => {
    expect(parseYear('2025')).toBe(2025);
    expect(parseYear(' 2026 ')).toBe(2026);
  });

  it.each(['abc', '25', '02025', '2025.0', '', '-2025', '2e3'])('rejects %p', (input) => {
    expect(() => parseYear(input)).toThrow(new InvalidYearError(input.trim()).message);
  });

  it('rejects a repeated parameter and out-of-range years', () => {
    expect(() => parseYear(['2025', '2026'])).toThrow("Invalid year: '2025,2026'. Use a four-digit year such as 2025");
    expect(() => parseYear('1990')).toThrow('Unsupported year: 1990. The NYSE calendar covers 1998 to 2100');
  });

  it('gives a typed validation error with a code', () => {
    let caught: unknown;
    try {
      parseYear('abc');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidYearError);
    expect(caught).toBeInstanceOf(Error);
    expect(caught).toMatchObject({
      code: 'VALIDATION_ERROR',
      name: 'InvalidYearError',
      message: "Invalid year: 'abc'. Use a four-digit year such as 2025",
    });
  });
});

describe('metrics', () => {
  it('on an early-close day, a minute before the 13:00 close', () => {
    const clock = new FixedClock('2025-11-28T17:59:30.123Z'); // 12:59:30.123 EST
    expect(calendar.metrics(clock.now())).toEqual({
      current_time: '2025-11-28T12:59:30.123000',
      market_status: 'open',
      market_open_time: '09:30:00',
      market_close_time: '13:00:00',
      is_trading_day: true,
      next_trading_day: '2025-12-01',
      trading_days_this_month: 19,
      trading_days_this_year: 251,
    });
    clock.advance(30_000);
    expect(calendar.metrics(clock.now())).toMatchObject({
      current_time: '2025-11-28T13:00:00.123000',
      market_status: 'after-hours',
    });
  });

  it('on a holiday: closed, regular hours shown, next trading day the day after', () => {
    const clock = new FixedClock('2025-12-25T15:00:00Z'); // 10:00 EST
    expect(calendar.metrics(clock.now())).toEqual({
      current_time: '2025-12-25T10:00:00.000000',
      market_status: 'closed',
      market_open_time: '09:30:00',
      market_close_time: '16:00:00',
      is_trading_day: false,
      next_trading_day: '2025-12-26',
      trading_days_this_month: 22,
      trading_days_this_year: 251,
    });
  });

  it("uses New York's date, month and year when UTC has already moved on", () => {
    const clock = new FixedClock('2026-01-01T04:30:00Z'); // 2025-12-31 23:30 EST
    expect(calendar.metrics(clock.now())).toEqual({
      current_time: '2025-12-31T23:30:00.000000',
      market_status: 'closed',
      market_open_time: '09:30:00',
      market_close_time: '16:00:00',
      is_trading_day: true,
      next_trading_day: '2026-01-02',
      trading_days_this_month: 22,
      trading_days_this_year: 251,
    });
  });

  it('on the spring-forward Sunday, after the jump', () => {
    const metrics = calendar.metrics(new FixedClock('2025-03-09T07:30:00Z').now()); // 03:30 EDT
    expect(metrics.current_time).toBe('2025-03-09T03:30:00.000000');
    expect(metrics.market_status).toBe('closed');
    expect(metrics.is_trading_day).toBe(false);
    expect(metrics.next_trading_day).toBe('2025-03-10');
    expect(metrics.trading_days_this_month).toBe(21);
  });

  it('has exactly the contract fields, with their types and formats', () => {
    const metrics = calendar.metrics(new FixedClock('2024-07-03T13:45:06.789Z').now()); // 09:45:06.789 EDT
    expect(Object.keys(metrics).sort()).toEqual([
      'current_time',
      'is_trading_day',
      'market_close_time',
      'market_open_time',
      'market_status',
      'next_trading_day',
      'trading_days_this_month',
      'trading_days_this_year',
    ]);
    expect(metrics.current_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/);
    expect(metrics.current_time).toBe('2024-07-03T09:45:06.789000');
    expect(metrics.market_open_time).toMatch(/^\d{2}:\d{2}:\d{2}$/);
    expect(metrics.market_close_time).toBe('13:00:00');
    expect(metrics.market_status).toBe('open');
    expect(typeof metrics.is_trading_day).toBe('boolean');
    expect(metrics.next_trading_day).toBe('2024-07-05');
    expect(Number.isInteger(metrics.trading_days_this_month)).toBe(true);
    expect(metrics.trading_days_this_month).toBe(22);
    expect(metrics.trading_days_this_year).toBe(252);
  });
});
