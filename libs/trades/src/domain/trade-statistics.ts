import { dayOfWeek, Decimal, type IsoDate } from '@app/shared/domain';
import type { ReportedTrade, TradeSide } from './reported-trade.js';

/**
 * The figures a trader judges a strategy by (docs/api.md "Statistics"), over a list of completed
 * trades, exact. A trade counts on its close date; its P&L is its total profit or loss. Ratios are
 * null where their divisor is zero; rounding is the response's business.
 */
export interface TradeStatistics {
  readonly totalTrades: number;
  readonly winningTrades: number;
  readonly losingTrades: number;
  readonly breakevenTrades: number;
  readonly winRate: Decimal | null;
  readonly winRateExcludingBreakeven: Decimal | null;
  readonly grossProfit: Decimal;
  readonly grossLoss: Decimal;
  readonly netProfitLoss: Decimal;
  readonly profitFactor: Decimal | null;
  readonly averageWin: Decimal | null;
  readonly averageLoss: Decimal | null;
  readonly payoffRatio: Decimal | null;
  readonly expectancy: Decimal | null;
  readonly largestWin: ReportedTrade | null;
  readonly largestLoss: ReportedTrade | null;
  readonly averageHoldingDaysWinners: Decimal | null;
  readonly averageHoldingDaysLosers: Decimal | null;
  readonly days: DailyStatistics;
  readonly maxDrawdown: Drawdown;
  readonly bySide: readonly Breakdown<TradeSide>[];
  readonly byWeekday: readonly Breakdown<Weekday>[];
  readonly byHoldingPeriod: readonly Breakdown<HoldingPeriod>[];
  readonly topWinningSymbols: readonly Breakdown<string>[];
  readonly topLosingSymbols: readonly Breakdown<string>[];
}

export interface DayAmount {
  readonly date: IsoDate;
  readonly amount: Decimal;
}

/** Over trading days: the close dates with at least one trade, each worth the sum of its trades' P&L. */
export interface DailyStatistics {
  readonly tradingDays: number;
  readonly greenDays: number;
  readonly redDays: number;
  readonly bestDay: DayAmount | null;
  readonly worstDay: DayAmount | null;
  readonly averageDailyProfitLoss: Decimal | null;
  /** Sample standard deviation (n − 1); null under two days. */
  readonly dailyProfitLossStdDev: Decimal | null;
  readonly maxWinningDayStreak: number;
  readonly maxLosingDayStreak: number;
  /** +n: the last n trading days were green; −n: red; 0: the last was flat, or no days. */
  readonly currentDayStreak: number;
}

/** The largest fall of the realized equity curve (cumulative P&L by trading day, from 0) from a running peak. */
export interface Drawdown {
  /** ≤ 0. */
  readonly amount: Decimal;
  /** Null when the peak is the starting 0. */
  readonly peakDate: IsoDate | null;
  readonly troughDate: IsoDate | null;
  /** The first later day back at or above the peak; null if not yet. */
  readonly recoveryDate: IsoDate | null;
}

export interface Breakdown<K> {
  readonly key: K;
  readonly totalTrades: number;
  readonly winningTrades: number;
  readonly winRate: Decimal | null;
  readonly netProfitLoss: Decimal;
  readonly averageProfitLoss: Decimal | null;
}

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const HOLDING_PERIODS = ['same_day', '1_7', '8_30', '31_365', 'over_365'] as const;
export type HoldingPeriod = (typeof HOLDING_PERIODS)[number];
const TOP_SYMBOLS = 10;

export function holdingPeriodOf(days: number): HoldingPeriod {
  if (days <= 0) return 'same_day';
  if (days <= 7) return '1_7';
  if (days <= 30) return '8_30';
  if (days <= 365) return '31_365';
  return 'over_365';
}

export function tradeStatistics(trades: readonly ReportedTrade[]): TradeStatistics {
  const winners = trades.filter((trade) => trade.totalProfitLoss.isPositive());
  const losers = trades.filter((trade) => trade.totalProfitLoss.isNegative());
  const grossProfit = sumOf(winners);
  const grossLoss = sumOf(losers);
  const netProfitLoss = grossProfit.add(grossLoss);
  const averageWin = ratio(grossProfit, winners.length);
  const averageLoss = ratio(grossLoss, losers.length);
  return {
    totalTrades: trades.length,
    winningTrades: winners.length,
    losingTrades: losers.length,
    breakevenTrades: trades.length - winners.length - losers.length,
    winRate: percentOf(winners.length, trades.length),
    winRateExcludingBreakeven: percentOf(winners.length, winners.length + losers.length),
    grossProfit,
    grossLoss,
    netProfitLoss,
    profitFactor: grossLoss.isZero() ? null : grossProfit.div(grossLoss.abs()),
    averageWin,
    averageLoss,
    payoffRatio: averageWin === null || averageLoss === null ? null : averageWin.div(averageLoss.abs()),
    expectancy: ratio(netProfitLoss, trades.length),
    largestWin: extreme(winners, (a, b) => a.totalProfitLoss.gt(b.totalProfitLoss)),
    largestLoss: extreme(losers, (a, b) => a.totalProfitLoss.lt(b.totalProfitLoss)),
    averageHoldingDaysWinners: ratio(Decimal.of(winners.reduce((sum, trade) => sum + trade.holdingDays, 0)), winners.length),
    averageHoldingDaysLosers: ratio(Decimal.of(losers.reduce((sum, trade) => sum + trade.holdingDays, 0)), losers.length),
    days: dailyStatistics(tradingDays(trades)),
    maxDrawdown: maxDrawdown(tradingDays(trades)),
    bySide: breakdown(trades, (trade) => trade.side, ['long', 'short'], false),
    byWeekday: breakdown(trades, (trade) => WEEKDAYS[dayOfWeek(trade.closeDate)], [...WEEKDAYS.slice(1, 6), 'Saturday', 'Sunday'], true, [
      'Saturday',
      'Sunday',
    ]),
    byHoldingPeriod: breakdown(trades, (trade) => holdingPeriodOf(trade.holdingDays), HOLDING_PERIODS, true),
    ...topSymbols(trades),
  };
}

/** Each close date with trades and the sum of their P&L, in date order. */
export function tradingDays(trades: readonly ReportedTrade[]): DayAmount[] {
  const byDay = new Map<IsoDate, Decimal>();
  for (const trade of trades) byDay.set(trade.closeDate, (byDay.get(trade.closeDate) ?? Decimal.ZERO).add(trade.totalProfitLoss));
  return [...byDay].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([date, amount]) => ({ date, amount }));
}

export function dailyStatistics(days: readonly DayAmount[]): DailyStatistics {
  let best: DayAmount | null = null;
  let worst: DayAmount | null = null;
  let winning = 0;
  let losing = 0;
  let maxWinning = 0;
  let maxLosing = 0;
  for (const day of days) {
    if (best === null || day.amount.gt(best.amount)) best = day;
    if (worst === null || day.amount.lt(worst.amount)) worst = day;
    winning = day.amount.isPositive() ? winning + 1 : 0;
    losing = day.amount.isNegative() ? losing + 1 : 0;
    maxWinning = Math.max(maxWinning, winning);
    maxLosing = Math.max(maxLosing, losing);
  }
  const total = Decimal.sum(days.map((day) => day.amount));
  const mean = ratio(total, days.length);
  return {
    tradingDays: days.length,
    greenDays: days.filter((day) => day.amount.isPositive()).length,
    redDays: days.filter((day) => day.amount.isNegative()).length,
    bestDay: best,
    worstDay: worst,
    averageDailyProfitLoss: mean,
    dailyProfitLossStdDev: mean === null || days.length < 2 ? null : sampleStdDev(days.map((day) => day.amount), total),
    maxWinningDayStreak: maxWinning,
    maxLosingDayStreak: maxLosing,
    currentDayStreak: winning > 0 ? winning : losing > 0 ? -losing : 0,
  };
}

export function maxDrawdown(days: readonly DayAmount[]): Drawdown {
  let equity = Decimal.ZERO;
  let peak = Decimal.ZERO;
  let peakDate: IsoDate | null = null;
  let deepest: { amount: Decimal; peak: Decimal; peakDate: IsoDate | null; troughDate: IsoDate; troughIndex: number } | null = null;
  days.forEach((day, index) => {
    equity = equity.add(day.amount);
    if (equity.gte(peak)) {
      peak = equity;
      peakDate = day.date;
      return;
    }
    const fall = equity.sub(peak);
    if (deepest === null || fall.lt(deepest.amount)) deepest = { amount: fall, peak, peakDate, troughDate: day.date, troughIndex: index };
  });
  if (deepest === null) return { amount: Decimal.ZERO, peakDate: null, troughDate: null, recoveryDate: null };
  const found: { amount: Decimal; peak: Decimal; peakDate: IsoDate | null; troughDate: IsoDate; troughIndex: number } = deepest;
  let running = Decimal.ZERO;
  let recoveryDate: IsoDate | null = null;
  for (const [index, day] of days.entries()) {
    running = running.add(day.amount);
    if (index > found.troughIndex && running.gte(found.peak)) {
      recoveryDate = day.date;
      break;
    }
  }
  return { amount: found.amount, peakDate: found.peakDate, troughDate: found.troughDate, recoveryDate };
}

function breakdown<K extends string>(
  trades: readonly ReportedTrade[],
  keyOf: (trade: ReportedTrade) => K,
  order: readonly K[],
  listEmpty: boolean,
  onlyWhenTraded: readonly K[] = [],
): Breakdown<K>[] {
  if (trades.length === 0) return [];
  const groups = new Map<K, ReportedTrade[]>();
  for (const trade of trades) {
    const key = keyOf(trade);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [trade]);
    else group.push(trade);
  }
  return order
    .filter((key) => groups.has(key) || (listEmpty && !onlyWhenTraded.includes(key)))
    .map((key) => summarise(key, groups.get(key) ?? []));
}

function summarise<K>(key: K, trades: readonly ReportedTrade[]): Breakdown<K> {
  const winning = trades.filter((trade) => trade.totalProfitLoss.isPositive()).length;
  const net = sumOf(trades);
  return { key, totalTrades: trades.length, winningTrades: winning, winRate: percentOf(winning, trades.length), netProfitLoss: net, averageProfitLoss: ratio(net, trades.length) };
}

function topSymbols(trades: readonly ReportedTrade[]): { topWinningSymbols: Breakdown<string>[]; topLosingSymbols: Breakdown<string>[] } {
  const groups = new Map<string, ReportedTrade[]>();
  for (const trade of trades) {
    const group = groups.get(trade.symbol);
    if (group === undefined) groups.set(trade.symbol, [trade]);
    else group.push(trade);
  }
  const all = [...groups].map(([symbol, list]) => summarise(symbol, list));
  const bySymbol = (a: Breakdown<string>, b: Breakdown<string>) => (a.key < b.key ? -1 : 1);
  return {
    topWinningSymbols: all.filter((row) => row.netProfitLoss.isPositive()).sort((a, b) => b.netProfitLoss.cmp(a.netProfitLoss) || bySymbol(a, b)).slice(0, TOP_SYMBOLS),
    topLosingSymbols: all.filter((row) => row.netProfitLoss.isNegative()).sort((a, b) => a.netProfitLoss.cmp(b.netProfitLoss) || bySymbol(a, b)).slice(0, TOP_SYMBOLS),
  };
}

function sumOf(trades: readonly ReportedTrade[]): Decimal {
  return Decimal.sum(trades.map((trade) => trade.totalProfitLoss));
}

function ratio(value: Decimal, count: number): Decimal | null {
  return count === 0 ? null : value.div(count);
}

function percentOf(part: number, whole: number): Decimal | null {
  return whole === 0 ? null : Decimal.of(part).mulDiv(Decimal.HUNDRED, Decimal.of(whole));
}

/** The first trade that beats every other by `better` (the earliest of equals, in list order). */
function extreme(trades: readonly ReportedTrade[], better: (a: ReportedTrade, b: ReportedTrade) => boolean): ReportedTrade | null {
  let chosen: ReportedTrade | null = null;
  for (const trade of trades) if (chosen === null || better(trade, chosen)) chosen = trade;
  return chosen;
}

/** √(Σ(x − mean)² ÷ (n − 1)), the variance exact and its root to the Decimal's last place. */
function sampleStdDev(values: readonly Decimal[], total: Decimal): Decimal {
  const n = values.length;
  // Σ(x − mean)² = Σx² − (Σx)²/n, with exact products (no rounding until the division).
  const sumOfSquares = values.reduce((sum, value) => sum + value.rawUnits * value.rawUnits, 0n);
  const spreadUnits2 = sumOfSquares * BigInt(n) - total.rawUnits * total.rawUnits; // × n, in units²
  const varianceUnits2 = spreadUnits2 / (BigInt(n) * BigInt(n - 1));
  return Decimal.fromUnits(integerSquareRoot(varianceUnits2));
}

function integerSquareRoot(value: bigint): bigint {
  if (value < 2n) return value;
  let x = BigInt(Math.floor(Math.sqrt(Number(value))));
  // Newton's steps from a float estimate, then settle on floor(√value).
  for (;;) {
    const next = (x + value / x) >> 1n;
    if (next >= x && next - x <= 1n) break;
    x = next;
  }
  while (x * x > value) x -= 1n;
  while ((x + 1n) * (x + 1n) <= value) x += 1n;
  return x;
}
