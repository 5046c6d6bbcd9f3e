import { Decimal } from '@app/shared/domain';
import { buildCalendarMonth, calendarWindow } from './calendar-month.js';
import type { DayTotals } from './period-totals.js';
import { reportMonth } from './report-dates.js';

const day = (date: string, trades: number, wins: number, pnl: string, dividends = 0, paid = '0'): DayTotals => ({
  date,
  tradeCount: trades,
  winningTrades: wins,
  tradingProfitLoss: Decimal.parse(pnl),
  dividendCount: dividends,
  dividends: Decimal.parse(paid),
});

describe('the calendar month', () => {
  it('reaches from the Monday of the first week to the Sunday of the last', () => {
    expect(calendarWindow(reportMonth(2024, 3))).toEqual({ from: '2024-02-26', to: '2024-03-31' });
    expect(calendarWindow(reportMonth(2024, 12))).toEqual({ from: '2024-11-25', to: '2025-01-05' });
    expect(calendarWindow(reportMonth(2025, 1))).toEqual({ from: '2024-12-30', to: '2025-02-02' });
  });

  it('lists every day with its day of the week (Sunday 0 … Saturday 6)', () => {
    const days = buildCalendarMonth(reportMonth(2024, 2), []);
    expect(days).toHaveLength(29);
    expect(days.slice(0, 5).map((d) => [d.date, d.day, d.dayOfWeek])).toEqual([
      ['2024-02-01', 1, 4],
      ['2024-02-02', 2, 5],
      ['2024-02-03', 3, 6],
      ['2024-02-04', 4, 0],
      ['2024-02-05', 5, 1],
    ]);
    expect(days.at(-1)).toMatchObject({ date: '2024-02-29', day: 29, dayOfWeek: 4, weekStart: '2024-02-26' });
  });

  it('an empty month is all zeros', () => {
    const days = buildCalendarMonth(reportMonth(2023, 4), []);
    expect(days).toHaveLength(30);
    for (const calendarDay of days) {
      expect(calendarDay.totals.tradeCount + calendarDay.week.tradeCount + calendarDay.totals.dividendCount).toBe(0);
      expect(calendarDay.week.tradingProfitLoss.isZero()).toBe(true);
    }
  });

  it('gives each day the totals of its whole Monday–Sunday week, days of the next year included', () => {
    const days = buildCalendarMonth(reportMonth(2024, 12), [
      day('2024-12-27', 1, 1, '10'),
      day('2024-12-30', 2, 1, '-5.5'),
      day('2025-01-02', 1, 0, '-1.25', 1, '3.10'),
      day('2025-01-06', 4, 4, '100'),
    ]);
    const last = days.at(-1);
    expect(last).toMatchObject({ date: '2024-12-31', dayOfWeek: 2, weekStart: '2024-12-30' });
    expect(last?.totals.tradeCount).toBe(0);
    expect(last?.week).toMatchObject({ tradeCount: 3, winningTrades: 1, dividendCount: 1 });
    expect(last?.week.tradingProfitLoss.toString()).toBe('-6.75');
    expect(last?.week.dividends.toString()).toBe('3.1');
    const friday = days.find((d) => d.date === '2024-12-27');
    expect(friday?.totals.tradeCount).toBe(1);
    expect(friday?.week).toMatchObject({ tradeCount: 1, winningTrades: 1 });
    const monday = days.find((d) => d.date === '2024-12-30');
    expect(monday?.totals.tradingProfitLoss.toString()).toBe('-5.5');
  });

  it('and the January calendar sees the same week from the other side', () => {
    const days = buildCalendarMonth(reportMonth(2025, 1), [day('2024-12-30', 2, 1, '-5.5'), day('2025-01-02', 1, 0, '-1.25')]);
    expect(days[0]).toMatchObject({ date: '2025-01-01', dayOfWeek: 3, weekStart: '2024-12-30' });
    expect(days[0].week.tradeCount).toBe(3);
    expect(days[0].week.tradingProfitLoss.toString()).toBe('-6.75');
    expect(days[5]).toMatchObject({ date: '2025-01-06', weekStart: '2025-01-06' });
    expect(days[5].week.tradeCount).toBe(0);
  });
});
