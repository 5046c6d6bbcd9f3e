import { describe, expect, it } from 'vitest';
import type { CalendarDay } from '../api/types';
import { calendarWeeks, heatLevel, heatStep, largestDailyMove, mondayFirstColumn } from './calendar-grid';
import { addDays, addMonths, withEmptyPeriods } from './dates';

/** May 2024: the 1st is a Wednesday (day_of_week 3), 31 days. */
function may2024(): CalendarDay[] {
  return Array.from({ length: 31 }, (_, index) => {
    const day = index + 1;
    const weekIndex = Math.floor((day + 1) / 7); // weeks start on Mondays: the 6th, 13th, 20th, 27th
    return {
      date: `2024-05-${String(day).padStart(2, '0')}`,
      day,
      day_of_week: (3 + index) % 7,
      trade_count: day === 28 ? 2 : 0,
      winning_trades: 0,
      trading_pnl: day === 28 ? -3290.99 : 0,
      dividend_count: 0,
      dividends: 0,
      total_pnl: day === 28 ? -3290.99 : day === 9 ? 1059.63 : 0,
      has_activity: day === 28 || day === 9,
      week_start: '2024-05-06',
      week_trade_count: weekIndex,
      week_winning_trades: 0,
      week_trading_pnl: weekIndex * 10,
      week_dividends: 0,
      week_total_pnl: weekIndex * 10,
      week_win_rate: 0,
    };
  });
}

describe('calendarWeeks', () => {
  it('lays the month out Monday to Sunday, with blanks for the neighbouring months', () => {
    const weeks = calendarWeeks(may2024());
    expect(weeks).toHaveLength(5);
    expect(weeks[0].cells.map((cell) => cell?.day ?? null)).toEqual([null, null, 1, 2, 3, 4, 5]);
    expect(weeks[1].cells.map((cell) => cell?.day)).toEqual([6, 7, 8, 9, 10, 11, 12]);
    expect(weeks[4].cells.map((cell) => cell?.day ?? null)).toEqual([27, 28, 29, 30, 31, null, null]);
  });

  it("sums each week's row from the days it shows, in cents, so the rows add up to the month (not week_*, the whole week)", () => {
    const days = may2024().map((day) => (day.day === 30 ? { ...day, total_pnl: 0.1, trade_count: 1, winning_trades: 1 } : day.day === 31 ? { ...day, total_pnl: 0.2 } : day));
    const weeks = calendarWeeks(days);
    expect(weeks.map((week) => week.totals.totalPnl)).toEqual([0, 1059.63, 0, 0, -3290.69]);
    expect(weeks[4].totals).toEqual({ tradeCount: 3, winningTrades: 1, totalPnl: -3290.69, winRate: 33.33 });
    expect(weeks[0].totals).toEqual({ tradeCount: 0, winningTrades: 0, totalPnl: 0, winRate: 0 });
  });

  it('does not depend on the order of the days', () => {
    expect(calendarWeeks([...may2024()].reverse())).toEqual(calendarWeeks(may2024()));
  });

  it('starts a month that begins on a Sunday with six blanks', () => {
    const september2024 = may2024()
      .slice(0, 30)
      .map((day, index) => ({ ...day, date: `2024-09-${String(index + 1).padStart(2, '0')}`, day_of_week: index % 7 }));
    const weeks = calendarWeeks(september2024);
    expect(weeks[0].cells.filter((cell) => cell === null)).toHaveLength(6);
    expect(weeks[0].cells[6]?.day).toBe(1);
    expect(weeks).toHaveLength(6);
  });

  it('numbers columns from Monday', () => {
    expect([1, 2, 3, 4, 5, 6, 0].map(mondayFirstColumn)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});

describe('heat map scale', () => {
  it('is 0 for nothing and 1 for the largest move of the month, either sign', () => {
    const days = may2024();
    const largest = largestDailyMove(days);
    expect(largest).toBe(3290.99);
    expect(heatLevel(0, largest)).toBe(0);
    expect(heatLevel(-3290.99, largest)).toBe(1);
    expect(heatStep(-3290.99, largest)).toBe(4);
    expect(heatStep(1059.63, largest)).toBe(3);
  });

  it('still shows a tiny day (step 1 at least)', () => {
    expect(heatStep(0.01, 10000)).toBe(1);
    expect(heatStep(5, 0)).toBe(0);
  });
});

describe('bars by period', () => {
  it('shows the weeks and months without activity between others as zero', () => {
    const weeks = withEmptyPeriods(
      [
        { key: '2024-05-06', value: 10 },
        { key: '2024-05-27', value: -5 },
      ],
      (day) => addDays(day, 7),
    );
    expect(weeks).toEqual([
      { key: '2024-05-06', value: 10 },
      { key: '2024-05-13', value: 0 },
      { key: '2024-05-20', value: 0 },
      { key: '2024-05-27', value: -5 },
    ]);
    expect(withEmptyPeriods([{ key: '2023-11', value: 1 }, { key: '2024-02', value: 2 }], (month) => addMonths(month, 1)).map((m) => m.key)).toEqual(['2023-11', '2023-12', '2024-01', '2024-02']);
    expect(withEmptyPeriods([], (day) => addDays(day, 7))).toEqual([]);
  });
});
