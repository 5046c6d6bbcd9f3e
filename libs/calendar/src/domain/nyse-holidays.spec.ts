import { easterSunday, nyseEarlyCloses, nyseHolidays } from './nyse-holidays.js';
import { InvalidYearError } from './trading-calendar.errors.js';

// Expected dates copied from the NYSE's published "Holidays and Trading Hours" calendars.
// 2025: the exchange also closed on Thursday 2025-01-09 (national day of mourning for President Carter).
// That was an ad-hoc closure, not a rule, so it is deliberately absent from the rule-based lists below.

const dates = (entries: { date: string }[]) => entries.map((e) => e.date);

describe('NYSE holidays by rule, against the official lists', () => {
  it('2024', () => {
    expect(dates(nyseHolidays(2024))).toEqual([
      '2024-01-01',
      '2024-01-15',
      '2024-02-19',
      '2024-03-29',
      '2024-05-27',
      '2024-06-19',
      '2024-07-04',
      '2024-09-02',
      '2024-11-28',
      '2024-12-25',
    ]);
    expect(dates(nyseEarlyCloses(2024))).toEqual(['2024-07-03', '2024-11-29', '2024-12-24']);
  });

  it('2025', () => {
    expect(dates(nyseHolidays(2025))).toEqual([
      '2025-01-01',
      '2025-01-20',
      '2025-02-17',
      '2025-04-18',
      '2025-05-26',
      '2025-06-19',
      '2025-07-04',
      '2025-09-01',
      '2025-11-27',
      '2025-12-25',
    ]);
    expect(dates(nyseEarlyCloses(2025))).toEqual(['2025-07-03', '2025-11-28', '2025-12-24']);
  });

  it('2026 (Independence Day falls on a Saturday: observed Friday July 3, so no July 3 early close)', () => {
    expect(dates(nyseHolidays(2026))).toEqual([
      '2026-01-01',
      '2026-01-19',
      '2026-02-16',
      '2026-04-03',
      '2026-05-25',
      '2026-06-19',
      '2026-07-03',
      '2026-09-07',
      '2026-11-26',
      '2026-12-25',
    ]);
    expect(dates(nyseEarlyCloses(2026))).toEqual(['2026-11-27', '2026-12-24']);
  });

  it('names every holiday, marking observed ones', () => {
    expect(nyseHolidays(2026).map((h) => h.name)).toEqual([
      "New Year's Day",
      'Martin Luther King, Jr. Day',
      "Washington's Birthday",
      'Good Friday',
      'Memorial Day',
      'Juneteenth National Independence Day',
      'Independence Day (observed)',
      'Labor Day',
      'Thanksgiving Day',
      'Christmas Day',
    ]);
    expect(nyseHolidays(2026).every((h) => h.type === 'holiday')).toBe(true);
  });

  it('names the early closes and gives them a 13:00 close', () => {
    expect(nyseEarlyCloses(2025)).toEqual([
      { date: '2025-07-03', name: 'Day before Independence Day', type: 'early_close', closeTime: '13:00:00' },
      { date: '2025-11-28', name: 'Day after Thanksgiving', type: 'early_close', closeTime: '13:00:00' },
      { date: '2025-12-24', name: 'Christmas Eve', type: 'early_close', closeTime: '13:00:00' },
    ]);
  });
});

describe('observance rules', () => {
  it('does not move a Saturday New Year\'s Day to the Friday before (2022: no New Year holiday at all)', () => {
    const holidays2022 = dates(nyseHolidays(2022));
    expect(holidays2022).toHaveLength(9);
    expect(holidays2022).not.toContain('2021-12-31');
    expect(holidays2022[0]).toBe('2022-01-17');
    expect(dates(nyseHolidays(2021))).not.toContain('2021-12-31');
  });

  it('moves a Sunday holiday to Monday (New Year 2023, Christmas 2022, Independence Day 2021)', () => {
    expect(nyseHolidays(2023)[0]).toEqual({ date: '2023-01-02', name: "New Year's Day (observed)", type: 'holiday' });
    expect(dates(nyseHolidays(2022))).toContain('2022-12-26');
    expect(dates(nyseHolidays(2021))).toContain('2021-07-05');
  });

  it('moves other Saturday holidays to Friday (Juneteenth and Christmas 2027, Christmas 2021)', () => {
    expect(dates(nyseHolidays(2027))).toEqual([
      '2027-01-01',
      '2027-01-18',
      '2027-02-15',
      '2027-03-26',
      '2027-05-31',
      '2027-06-18',
      '2027-07-05',
      '2027-09-06',
      '2027-11-25',
      '2027-12-24',
    ]);
    expect(dates(nyseHolidays(2021))).toContain('2021-12-24');
  });

  it('adds Juneteenth from 2022 only', () => {
    expect(nyseHolidays(2021).map((h) => h.name)).not.toContain('Juneteenth National Independence Day');
    expect(nyseHolidays(2022).find((h) => h.name === 'Juneteenth National Independence Day (observed)')?.date).toBe(
      '2022-06-20',
    );
  });

  it('drops an early close that would fall on a weekend or on an observed holiday', () => {
    // 2021: July 3 Saturday, Christmas Eve the observed Christmas. 2022: July 3 Sunday, Christmas Eve Saturday.
    expect(dates(nyseEarlyCloses(2021))).toEqual(['2021-11-26']);
    expect(dates(nyseEarlyCloses(2022))).toEqual(['2022-11-25']);
    // 2023: July 3 a Monday before a Tuesday Independence Day; Christmas Eve a Sunday.
    expect(dates(nyseEarlyCloses(2023))).toEqual(['2023-07-03', '2023-11-24']);
    expect(dates(nyseEarlyCloses(2027))).toEqual(['2027-11-26']);
  });

  it('refuses years outside the supported range', () => {
    expect(() => nyseHolidays(1997)).toThrow(InvalidYearError);
    expect(() => nyseHolidays(2101)).toThrow('Unsupported year: 2101. The NYSE calendar covers 1998 to 2100');
    expect(() => nyseHolidays(2025.5)).toThrow(InvalidYearError);
  });
});

describe('easterSunday (anonymous Gregorian algorithm)', () => {
  it.each([
    [2024, '2024-03-31'],
    [2025, '2025-04-20'],
    [2026, '2026-04-05'],
    [2019, '2019-04-21'],
    [2008, '2008-03-23'],
    [2038, '2038-04-25'],
    [2011, '2011-04-24'],
  ])('%i → %s', (year, expected) => {
    expect(easterSunday(year)).toBe(expected);
  });
});
