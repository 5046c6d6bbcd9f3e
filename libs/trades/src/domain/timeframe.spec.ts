import { Decimal } from '@app/shared/domain';
import type { DayTotals } from './period-totals.js';
import { winRate } from './period-totals.js';
import { monthsWithActivity, summariseTimeframe } from './timeframe.js';

const day = (date: string, trades: number, wins: number, pnl: string, dividends = 0, paid = '0'): DayTotals => ({
  date,
  tradeCount: trades,
  winningTrades: wins,
  tradingProfitLoss: Decimal.parse(pnl),
  dividendCount: dividends,
  dividends: Decimal.parse(paid),
});

describe('timeframe buckets', () => {
  const days = [
    day('2024-04-25', 1, 0, '-71.55'),
    day('2024-04-30', 0, 0, '0', 1, '20.24'),
    day('2024-05-01', 1, 0, '-22.86'),
    day('2024-05-06', 2, 2, '100.005'),
    day('2024-12-31', 1, 1, '0.005'),
    day('2025-01-02', 3, 1, '-0.01', 2, '5'),
  ];
  const result = summariseTimeframe(days);

  it('sums the whole range exactly', () => {
    expect(result.summary).toMatchObject({ tradeCount: 8, winningTrades: 4, dividendCount: 3 });
    expect(result.summary.tradingProfitLoss.toString()).toBe('5.59');
    expect(result.summary.dividends.toString()).toBe('25.24');
  });

  it('weeks start on Monday, newest first, one bucket for a week that spans two months or two years', () => {
    expect(result.weekly.map((week) => [week.weekStart, week.totals.tradeCount, week.totals.dividendCount])).toEqual([
      ['2024-12-30', 4, 2],
      ['2024-05-06', 2, 0],
      ['2024-04-29', 1, 1],
      ['2024-04-22', 1, 0],
    ]);
    expect(result.weekly[0].totals.tradingProfitLoss.toString()).toBe('-0.005');
  });

  it('months newest first; a week across a month boundary counts in each month for its own days', () => {
    expect(result.monthly.map((month) => [month.month, month.totals.tradeCount, month.totals.dividendCount])).toEqual([
      ['2025-01', 3, 2],
      ['2024-12', 1, 0],
      ['2024-05', 3, 0],
      ['2024-04', 1, 1],
    ]);
    expect(monthsWithActivity(days).map((month) => month.month)).toEqual(['2025-01', '2024-12', '2024-05', '2024-04']);
  });

  it('includes periods with only dividends', () => {
    const onlyDividends = summariseTimeframe([day('2024-03-28', 0, 0, '0', 1, '20.16')]);
    expect(onlyDividends.weekly).toHaveLength(1);
    expect(onlyDividends.monthly[0]).toMatchObject({ month: '2024-03', totals: { tradeCount: 0, dividendCount: 1 } });
  });

  it('no days: zeros and empty lists', () => {
    const empty = summariseTimeframe([]);
    expect(empty.weekly).toEqual([]);
    expect(empty.monthly).toEqual([]);
    expect(empty.summary.tradeCount).toBe(0);
    expect(empty.summary.tradingProfitLoss.isZero()).toBe(true);
  });

  it('win rates are percent numbers, 0 without trades', () => {
    expect(winRate(0, 0).toNumber(2)).toBe(0);
    expect(winRate(1, 3).toNumber(2)).toBe(33.33);
    expect(winRate(2, 3).toNumber(2)).toBe(66.67);
    expect(winRate(3, 7).toNumber(2)).toBe(42.86);
  });
});
