import { Decimal } from '@app/shared/domain';
import { aTrade } from '../testing/in-memory-trade-reports.js';
import type { ClosedTrade } from './closed-trade.js';
import { holdingPeriodOf, maxDrawdown, PROFIT_LOSS_EDGES, profitLossBucketOf, tradeStatistics, tradingDays } from './trade-statistics.js';

const d = (text: string) => Decimal.parse(text);
const t = (closeDate: string, pnl: string, extra: Partial<ClosedTrade> = {}) => aTrade({ symbol: 'AAA', closeDate, totalProfitLoss: d(pnl), ...extra });
const text = (value: Decimal | null) => (value === null ? null : value.toFixed(2));

describe('trade statistics', () => {
  it('with no trades: counts 0, ratios null, breakdowns empty', () => {
    const stats = tradeStatistics([]);
    expect([stats.totalTrades, stats.winRate, stats.profitFactor, stats.expectancy, stats.largestWin, stats.averageWin]).toEqual([0, null, null, null, null, null]);
    expect([stats.bySide, stats.byWeekday, stats.byHoldingPeriod, stats.topWinningSymbols]).toEqual([[], [], [], []]);
    expect(stats.days).toMatchObject({ tradingDays: 0, bestDay: null, dailyProfitLossStdDev: null, currentDayStreak: 0 });
    expect(stats.maxDrawdown).toEqual({ amount: Decimal.ZERO, peakDate: null, troughDate: null, recoveryDate: null });
  });

  it('counts winners, losers and breakevens and derives every ratio exactly', () => {
    const trades = [t('2024-06-03', '100'), t('2024-06-03', '-40'), t('2024-06-04', '0'), t('2024-06-05', '50.5'), t('2024-06-06', '-20.25')];
    const stats = tradeStatistics(trades);
    expect([stats.totalTrades, stats.winningTrades, stats.losingTrades, stats.breakevenTrades]).toEqual([5, 2, 2, 1]);
    expect([text(stats.winRate), text(stats.winRateExcludingBreakeven)]).toEqual(['40.00', '50.00']);
    expect([text(stats.grossProfit), text(stats.grossLoss), text(stats.netProfitLoss)]).toEqual(['150.50', '-60.25', '90.25']);
    // 150.5 / 60.25 = 2.4979…; average win 75.25, average loss −30.125, payoff 2.4979…
    expect([text(stats.profitFactor), text(stats.averageWin), stats.averageLoss?.toString(), text(stats.payoffRatio), text(stats.expectancy)]).toEqual([
      '2.50',
      '75.25',
      '-30.125',
      '2.50',
      '18.05',
    ]);
    expect(stats.largestWin?.totalProfitLoss.toString()).toBe('100');
    expect(stats.largestLoss?.totalProfitLoss.toString()).toBe('-40');
  });

  it('has no profit factor without a loss, and only breakevens give no win rate excluding them', () => {
    expect(tradeStatistics([t('2024-06-03', '5')]).profitFactor).toBeNull();
    const flat = tradeStatistics([t('2024-06-03', '0'), t('2024-06-04', '0')]);
    expect([text(flat.winRate), flat.winRateExcludingBreakeven, flat.payoffRatio, text(flat.expectancy)]).toEqual(['0.00', null, null, '0.00']);
  });

  it('daily figures: one day has no standard deviation; streaks end on a flat day', () => {
    expect(tradeStatistics([t('2024-06-03', '5')]).days).toMatchObject({ tradingDays: 1, dailyProfitLossStdDev: null, currentDayStreak: 1 });
    const days = ['10', '20', '0', '30', '-5', '-5', '-5', '40', '0'].map((pnl, index) => t(`2024-06-${String(index + 3).padStart(2, '0')}`, pnl));
    const stats = tradeStatistics(days).days;
    expect([stats.tradingDays, stats.greenDays, stats.redDays, stats.maxWinningDayStreak, stats.maxLosingDayStreak, stats.currentDayStreak]).toEqual([9, 4, 3, 2, 3, 0]);
    expect([stats.bestDay?.date, stats.worstDay?.date]).toEqual(['2024-06-10', '2024-06-07']);
    // Mean 85/9 = 9.444…; Σ(x − mean)² = 2272.2222…; ÷ 8 = 284.0278; σ = 16.853…
    expect([text(stats.averageDailyProfitLoss), text(stats.dailyProfitLossStdDev)]).toEqual(['9.44', '16.85']);
  });

  it('sums a day’s trades before judging it, and counts a losing run as a negative current streak', () => {
    const stats = tradeStatistics([t('2024-06-03', '10'), t('2024-06-03', '-30'), t('2024-06-04', '-1')]).days;
    expect([stats.tradingDays, stats.redDays, stats.currentDayStreak]).toEqual([2, 2, -2]);
  });

  it('max drawdown: from the starting 0, ties keep the first, recovery at the peak', () => {
    expect(maxDrawdown(tradingDays([t('2024-06-03', '-10'), t('2024-06-04', '4')]))).toEqual({
      amount: d('-10'),
      peakDate: null,
      troughDate: '2024-06-03',
      recoveryDate: null,
    });
    const equity = ['100', '-30', '30', '-30', '10', '25'].map((pnl, index) => t(`2024-06-0${index + 3}`, pnl));
    // Peaks 100 (06-03), back to 100 on 06-05 (the new peak), −30 twice: the first fall is kept.
    expect(maxDrawdown(tradingDays(equity))).toEqual({ amount: d('-30'), peakDate: '2024-06-03', troughDate: '2024-06-04', recoveryDate: '2024-06-05' });
  });

  it('a short counts on its cover date, and the breakdowns split by side, weekday and holding period', () => {
    const short = t('2024-06-08', '12', { side: 'short', openDate: '2024-06-03', buyDate: '2024-06-08', sellDate: '2024-06-03', holdingDays: 5 });
    const trades = [t('2024-06-03', '10'), t('2024-06-04', '-4', { holdingDays: 400 }), short];
    const stats = tradeStatistics(trades);
    expect(stats.bySide.map((row) => [row.key, row.totalTrades, text(row.netProfitLoss)])).toEqual([
      ['long', 2, '6.00'],
      ['short', 1, '12.00'],
    ]);
    // 2024-06-08 is a Saturday: listed because it has a trade; Sunday is not.
    expect(stats.byWeekday.map((row) => [row.key, row.totalTrades])).toEqual([
      ['Monday', 1],
      ['Tuesday', 1],
      ['Wednesday', 0],
      ['Thursday', 0],
      ['Friday', 0],
      ['Saturday', 1],
    ]);
    expect(stats.byHoldingPeriod.map((row) => [row.key, row.totalTrades])).toEqual([
      ['same_day', 1],
      ['1_7', 1],
      ['8_30', 0],
      ['31_365', 0],
      ['over_365', 1],
    ]);
    expect([text(stats.averageHoldingDaysWinners), text(stats.averageHoldingDaysLosers)]).toEqual(['2.50', '400.00']);
    expect([holdingPeriodOf(0), holdingPeriodOf(7), holdingPeriodOf(8), holdingPeriodOf(365), holdingPeriodOf(366)]).toEqual(['same_day', '1_7', '8_30', '31_365', 'over_365']);
  });

  it('ranks symbols by net P&L, ten a side', () => {
    const trades = Array.from({ length: 25 }, (_, index) => aTrade({ symbol: `S${String(index).padStart(2, '0')}`, closeDate: '2024-06-03', totalProfitLoss: d(String(index - 12)) }));
    const stats = tradeStatistics(trades);
    expect(stats.topWinningSymbols.map((row) => row.key)).toEqual(['S24', 'S23', 'S22', 'S21', 'S20', 'S19', 'S18', 'S17', 'S16', 'S15']);
    expect(stats.topLosingSymbols.map((row) => row.key).slice(0, 3)).toEqual(['S00', 'S01', 'S02']);
    expect(stats.topLosingSymbols).toHaveLength(10);
  });

  it('counts trades per P&L bucket: lower edge included, breakevens with the small wins, the open ends unbounded', () => {
    expect([profitLossBucketOf(d('-10000.01')), profitLossBucketOf(d('-10000')), profitLossBucketOf(d('-0.01')), profitLossBucketOf(d('0')), profitLossBucketOf(d('10000'))]).toEqual([
      0, 1, 8, 9, PROFIT_LOSS_EDGES.length,
    ]);
    const distribution = tradeStatistics([t('2024-06-03', '0'), t('2024-06-03', '49.99'), t('2024-06-04', '-50'), t('2024-06-05', '25000')]).profitLossDistribution;
    expect(distribution).toHaveLength(PROFIT_LOSS_EDGES.length + 1);
    expect(distribution[0]).toEqual({ from: null, to: -10000, trades: 0 });
    expect(distribution.find((bucket) => bucket.from === 0)).toEqual({ from: 0, to: 50, trades: 2 });
    expect(distribution.find((bucket) => bucket.from === -50)).toEqual({ from: -50, to: 0, trades: 1 });
    expect(distribution.at(-1)).toEqual({ from: 10000, to: null, trades: 1 });
    expect(tradeStatistics([]).profitLossDistribution).toEqual([]);
  });
});
