import type { Decimal } from '@app/shared/domain';
import type { EquityPoint, StatisticsFilters } from '../application/statistics-report.service.js';
import type { ClosedTrade } from '../domain/closed-trade.js';
import type { Breakdown, DayAmount, TradeStatistics } from '../domain/trade-statistics.js';

// The response shapes of `/api/statistics` and `/api/equity-curve` (snake_case). Money, percentages
// and ratios are rounded here, once, half away from zero, to 2 places; average holding days to 1.

const two = (value: Decimal): number => value.toNumber(2);
const twoOrNull = (value: Decimal | null): number | null => (value === null ? null : value.toNumber(2));

export interface ExtremeTradeView {
  symbol: string;
  side: string;
  open_date: string;
  close_date: string;
  total_profit_loss: number;
  return_percentage: number;
}

export interface BreakdownView {
  total_trades: number;
  winning_trades: number;
  win_rate: number | null;
  net_profit_loss: number;
  average_profit_loss: number | null;
}

export interface StatisticsView {
  total_trades: number;
  winning_trades: number;
  losing_trades: number;
  breakeven_trades: number;
  win_rate: number | null;
  win_rate_excluding_breakeven: number | null;
  gross_profit: number;
  gross_loss: number;
  net_profit_loss: number;
  profit_factor: number | null;
  average_win: number | null;
  average_loss: number | null;
  payoff_ratio: number | null;
  expectancy: number | null;
  largest_win: ExtremeTradeView | null;
  largest_loss: ExtremeTradeView | null;
  average_holding_days_winners: number | null;
  average_holding_days_losers: number | null;
  trading_days: number;
  green_days: number;
  red_days: number;
  best_day: { date: string; profit_loss: number } | null;
  worst_day: { date: string; profit_loss: number } | null;
  average_daily_profit_loss: number | null;
  daily_profit_loss_std_dev: number | null;
  max_winning_day_streak: number;
  max_losing_day_streak: number;
  current_day_streak: number;
  max_drawdown: { amount: number; peak_date: string | null; trough_date: string | null; recovery_date: string | null };
  by_side: ({ side: string } & BreakdownView)[];
  by_weekday: ({ weekday: string } & BreakdownView)[];
  by_holding_period: ({ holding_period: string } & BreakdownView)[];
  by_symbol: { winners: ({ symbol: string } & BreakdownView)[]; losers: ({ symbol: string } & BreakdownView)[] };
  profit_loss_distribution: { from: number | null; to: number | null; trades: number }[];
}

export function statisticsView(stats: TradeStatistics): StatisticsView {
  const { days, maxDrawdown } = stats;
  return {
    total_trades: stats.totalTrades,
    winning_trades: stats.winningTrades,
    losing_trades: stats.losingTrades,
    breakeven_trades: stats.breakevenTrades,
    win_rate: twoOrNull(stats.winRate),
    win_rate_excluding_breakeven: twoOrNull(stats.winRateExcludingBreakeven),
    gross_profit: two(stats.grossProfit),
    gross_loss: two(stats.grossLoss),
    net_profit_loss: two(stats.netProfitLoss),
    profit_factor: twoOrNull(stats.profitFactor),
    average_win: twoOrNull(stats.averageWin),
    average_loss: twoOrNull(stats.averageLoss),
    payoff_ratio: twoOrNull(stats.payoffRatio),
    expectancy: twoOrNull(stats.expectancy),
    largest_win: extremeView(stats.largestWin),
    largest_loss: extremeView(stats.largestLoss),
    average_holding_days_winners: stats.averageHoldingDaysWinners === null ? null : stats.averageHoldingDaysWinners.toNumber(1),
    average_holding_days_losers: stats.averageHoldingDaysLosers === null ? null : stats.averageHoldingDaysLosers.toNumber(1),
    trading_days: days.tradingDays,
    green_days: days.greenDays,
    red_days: days.redDays,
    best_day: dayView(days.bestDay),
    worst_day: dayView(days.worstDay),
    average_daily_profit_loss: twoOrNull(days.averageDailyProfitLoss),
    daily_profit_loss_std_dev: twoOrNull(days.dailyProfitLossStdDev),
    max_winning_day_streak: days.maxWinningDayStreak,
    max_losing_day_streak: days.maxLosingDayStreak,
    current_day_streak: days.currentDayStreak,
    max_drawdown: {
      amount: two(maxDrawdown.amount),
      peak_date: maxDrawdown.peakDate,
      trough_date: maxDrawdown.troughDate,
      recovery_date: maxDrawdown.recoveryDate,
    },
    by_side: stats.bySide.map((row) => ({ side: row.key, ...breakdownView(row) })),
    by_weekday: stats.byWeekday.map((row) => ({ weekday: row.key, ...breakdownView(row) })),
    by_holding_period: stats.byHoldingPeriod.map((row) => ({ holding_period: row.key, ...breakdownView(row) })),
    by_symbol: {
      winners: stats.topWinningSymbols.map((row) => ({ symbol: row.key, ...breakdownView(row) })),
      losers: stats.topLosingSymbols.map((row) => ({ symbol: row.key, ...breakdownView(row) })),
    },
    profit_loss_distribution: stats.profitLossDistribution.map((bucket) => ({ from: bucket.from, to: bucket.to, trades: bucket.trades })),
  };
}

function breakdownView(row: Breakdown<string>): BreakdownView {
  return {
    total_trades: row.totalTrades,
    winning_trades: row.winningTrades,
    win_rate: twoOrNull(row.winRate),
    net_profit_loss: two(row.netProfitLoss),
    average_profit_loss: twoOrNull(row.averageProfitLoss),
  };
}

function extremeView(trade: ClosedTrade | null): ExtremeTradeView | null {
  if (trade === null) return null;
  return {
    symbol: trade.symbol,
    side: trade.side,
    open_date: trade.openDate,
    close_date: trade.closeDate,
    total_profit_loss: two(trade.totalProfitLoss),
    return_percentage: two(trade.returnPercentage),
  };
}

function dayView(day: DayAmount | null): { date: string; profit_loss: number } | null {
  return day === null ? null : { date: day.date, profit_loss: two(day.amount) };
}

export interface EquityPointView {
  date: string;
  trading_profit_loss: number;
  dividends: number;
  cumulative_trading_profit_loss: number;
  cumulative_total_return: number;
  drawdown: number;
}

export function equityPointView(point: EquityPoint): EquityPointView {
  return {
    date: point.date,
    trading_profit_loss: two(point.trading),
    dividends: two(point.dividends),
    cumulative_trading_profit_loss: two(point.cumulativeTrading),
    cumulative_total_return: two(point.cumulativeTotal),
    drawdown: two(point.drawdown),
  };
}

export interface FiltersView {
  all_time: boolean;
  start_date: string | null;
  end_date: string | null;
  symbols: string[] | null;
  side: string | null;
  tags: string[] | null;
  untagged: boolean;
}

export function filtersView(filters: StatisticsFilters): FiltersView {
  const { selection } = filters;
  return {
    all_time: selection.allTime,
    start_date: selection.allTime ? null : selection.start,
    end_date: selection.allTime ? null : selection.end,
    symbols: selection.symbols === null ? null : [...selection.symbols],
    side: filters.side,
    tags: filters.tags === null ? null : [...filters.tags],
    untagged: filters.untagged,
  };
}
