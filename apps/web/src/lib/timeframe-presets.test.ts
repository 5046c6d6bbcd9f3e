import { describe, expect, it } from 'vitest';
import { addMonths, isDay, isMonth, lastDayOfMonth, localToday, mondayOf } from './dates';
import { presetRange, timeframeQuery } from './timeframe-presets';

describe('presets, seen from Thursday 2024-05-16', () => {
  const today = '2024-05-16';
  it('this week starts on Monday', () => {
    expect(presetRange('week', today)).toEqual({ all: false, start: '2024-05-13', end: today });
  });
  it('this month, year to date, last year, all time', () => {
    expect(presetRange('month', today)).toEqual({ all: false, start: '2024-05-01', end: today });
    expect(presetRange('ytd', today)).toEqual({ all: false, start: '2024-01-01', end: today });
    expect(presetRange('last-year', today)).toEqual({ all: false, start: '2023-01-01', end: '2023-12-31' });
    expect(presetRange('all', today)).toEqual({ all: true });
  });
  it('a Sunday belongs to the week that began the Monday before', () => {
    expect(presetRange('week', '2024-05-19')).toEqual({ all: false, start: '2024-05-13', end: '2024-05-19' });
  });
});

describe('the timeframe query', () => {
  it('asks for a range or all time, and the symbols filter', () => {
    expect(timeframeQuery({ all: true }, [])).toBe('all=true');
    expect(timeframeQuery({ all: false, start: '2024-04-10', end: '2024-05-20' }, ['NVDA', 'SNOW'])).toBe('start=2024-04-10&end=2024-05-20&symbols=NVDA%2CSNOW');
  });
});

describe('date helpers', () => {
  it('months and days', () => {
    expect(addMonths('2024-01', -1)).toBe('2023-12');
    expect(addMonths('2024-12', 1)).toBe('2025-01');
    expect(lastDayOfMonth('2024-02')).toBe('2024-02-29');
    expect(mondayOf('2024-06-02')).toBe('2024-05-27');
    expect(isMonth('2024-13')).toBe(false);
    expect(isMonth('2024-05')).toBe(true);
    expect(isDay('2024-02-30')).toBe(false);
    expect(isDay('2024-02-29')).toBe(true);
    expect(localToday(new Date(2026, 0, 5, 23, 30))).toBe('2026-01-05');
  });
});
