import { dayOfWeek, Decimal, type IsoDate } from '@app/shared/domain';
import type { ClosedTrade, TradeSide } from './closed-trade.js';

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
  readonly largestWin: ClosedTrade | null;
  readonly largestLoss: ClosedTrade | null;
  readonly averageHoldingDaysWinners: Decimal | null;
  readonly averageHoldingDaysLosers: Decimal | null;
  readonly days: DailyStatistics;
  readonly maxDrawdown: Drawdown;
  readonly bySide: readonly Breakdown<TradeSide>[];
  readonly byWeekday: readonly Breakdown<Weekday>[];
  readonly byHoldingPeriod: readonly Breakdown<HoldingPeriod>[];
  readonly topWinningSymbols: readonly Breakdown<string>[];
  readonly topLosingSymbols: readonly Breakdown<string>[];
  /** Trades per P&L bucket, every bucket (none without trades). */
  readonly profitLossDistribution: readonly DistributionBucket[];
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

/**
 * The edges of the P&L distribution's buckets: bucket 0 is below the first edge, bucket i holds
 * [edge i−1, edge i), the last is at or above the last edge (a breakeven trade falls in [0, 50)).
 * Fixed, so any two selections compare, and so a database can bucket in the same scan.
 */
export const PROFIT_LOSS_EDGES: readonly number[] = [-10000, -5000, -2500, -1000, -500, -250, -100, -50, 0, 50, 100, 250, 500, 1000, 2500, 5000, 10000];

/** Which bucket of PROFIT_LOSS_EDGES a P&L falls in (as PostgreSQL's width_bucket over the same edges). */
export function profitLossBucketOf(profitLoss: Decimal): number {
  let bucket = 0;
  while (bucket < EDGES.length && profitLoss.gte(EDGES[bucket])) bucket += 1;
  return bucket;
}

/** PROFIT_LOSS_EDGES as decimals (comparing with a number reads it into one each time). */
const EDGES = PROFIT_LOSS_EDGES.map((edge) => Decimal.of(edge));

export interface DistributionBucket {
  /** Null: no lower bound. */
  readonly from: number | null;
  /** Exclusive; null: no upper bound. */
  readonly to: number | null;
  readonly trades: number;
}

export function holdingPeriodOf(days: number): HoldingPeriod {
  if (days <= 0) return 'same_day';
  if (days <= 7) return '1_7';
  if (days <= 30) return '8_30';
  if (days <= 365) return '31_365';
  return 'over_365';
}

/** What a group of trades adds up to: all the statistics need of them (the SQL adapter sums these). */
export interface TradeGroupTotals {
  readonly totalTrades: number;
  readonly winningTrades: number;
  readonly losingTrades: number;
  /** Σ P&L of the winners (≥ 0). */
  readonly grossProfit: Decimal;
  /** Σ P&L of the losers (≤ 0). */
  readonly grossLoss: Decimal;
  readonly winnersHoldingDays: number;
  readonly losersHoldingDays: number;
}

/**
 * A selection of trades summed every way the statistics look at it. The statistics are a function of
 * this alone, so a database can do the summing (one pass, no trade leaves it) and `aggregateTrades`
 * does the same over a list.
 */
export interface TradeAggregates {
  readonly all: TradeGroupTotals;
  readonly bySide: ReadonlyMap<TradeSide, TradeGroupTotals>;
  readonly byWeekday: ReadonlyMap<Weekday, TradeGroupTotals>;
  readonly byHoldingPeriod: ReadonlyMap<HoldingPeriod, TradeGroupTotals>;
  readonly bySymbol: ReadonlyMap<string, TradeGroupTotals>;
  /** Trades per bucket of PROFIT_LOSS_EDGES (only buckets with trades). */
  readonly byProfitLossBucket: ReadonlyMap<number, number>;
  /** The trading days, in date order. */
  readonly days: readonly DayAmount[];
  /** The winner with the largest P&L (the earliest of equals: by close date, then as recorded). */
  readonly largestWin: ClosedTrade | null;
  /** The loser with the most negative P&L (the earliest of equals). */
  readonly largestLoss: ClosedTrade | null;
}

export const NO_TRADES: TradeGroupTotals = {
  totalTrades: 0,
  winningTrades: 0,
  losingTrades: 0,
  grossProfit: Decimal.ZERO,
  grossLoss: Decimal.ZERO,
  winnersHoldingDays: 0,
  losersHoldingDays: 0,
};

/** The totals of two disjoint groups together. */
export function combinedTotals(a: TradeGroupTotals, b: TradeGroupTotals): TradeGroupTotals {
  return {
    totalTrades: a.totalTrades + b.totalTrades,
    winningTrades: a.winningTrades + b.winningTrades,
    losingTrades: a.losingTrades + b.losingTrades,
    grossProfit: a.grossProfit.add(b.grossProfit),
    grossLoss: a.grossLoss.add(b.grossLoss),
    winnersHoldingDays: a.winnersHoldingDays + b.winnersHoldingDays,
    losersHoldingDays: a.losersHoldingDays + b.losersHoldingDays,
  };
}

/** The ways a database sums the selected trades for the statistics (a group's key is its day, side, period, symbol or bucket). */
export type TradeGrouping = 'day' | 'side' | 'period' | 'symbol' | 'bucket';

/** Trades summed by one grouping; groups of the same grouping and key add up (a database may split them further). */
export interface TradeGroup {
  readonly grouping: TradeGrouping;
  /** The close date (`YYYY-MM-DD`), the side, the holding period, the symbol or the bucket number. */
  readonly key: string;
  readonly totals: TradeGroupTotals;
}

/**
 * Aggregates from trades a database has already summed by close date, side, holding period, symbol
 * and P&L bucket: the weekdays and the trading days roll up from the days; everything from the sides.
 */
export function aggregatesFromGroups(groups: Iterable<TradeGroup>, largestWin: ClosedTrade | null, largestLoss: ClosedTrade | null): TradeAggregates {
  const maps = {
    day: new Map<string, TradeGroupTotals>(),
    side: new Map<string, TradeGroupTotals>(),
    period: new Map<string, TradeGroupTotals>(),
    symbol: new Map<string, TradeGroupTotals>(),
    bucket: new Map<string, TradeGroupTotals>(),
  };
  for (const { grouping, key, totals } of groups) {
    const map = maps[grouping];
    map.set(key, combinedTotals(map.get(key) ?? NO_TRADES, totals));
  }
  const byWeekday = new Map<Weekday, TradeGroupTotals>();
  for (const [date, totals] of maps.day) {
    const weekday = WEEKDAYS[dayOfWeek(date)];
    byWeekday.set(weekday, combinedTotals(byWeekday.get(weekday) ?? NO_TRADES, totals));
  }
  const days = [...maps.day]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([date, totals]) => ({ date, amount: totals.grossProfit.add(totals.grossLoss) }));
  return {
    all: [...maps.side.values()].reduce(combinedTotals, NO_TRADES),
    bySide: maps.side as Map<TradeSide, TradeGroupTotals>,
    byWeekday,
    byHoldingPeriod: maps.period as Map<HoldingPeriod, TradeGroupTotals>,
    bySymbol: maps.symbol,
    byProfitLossBucket: new Map([...maps.bucket].map(([bucket, totals]) => [Number(bucket), totals.totalTrades])),
    days,
    largestWin,
    largestLoss,
  };
}

export function tradeStatistics(trades: readonly ClosedTrade[]): TradeStatistics {
  return statisticsOf(aggregateTrades(trades));
}

/** `trades` in close-date order (then as recorded), summed. */
export function aggregateTrades(trades: readonly ClosedTrade[]): TradeAggregates {
  const groups = {
    bySide: new Map<TradeSide, TradeGroupTotals>(),
    byWeekday: new Map<Weekday, TradeGroupTotals>(),
    byHoldingPeriod: new Map<HoldingPeriod, TradeGroupTotals>(),
    bySymbol: new Map<string, TradeGroupTotals>(),
  };
  const byProfitLossBucket = new Map<number, number>();
  const add = <K>(map: Map<K, TradeGroupTotals>, key: K, trade: ClosedTrade) => map.set(key, withTrade(map.get(key) ?? NO_TRADES, trade));
  let all = NO_TRADES;
  for (const trade of trades) {
    all = withTrade(all, trade);
    add(groups.bySide, trade.side, trade);
    add(groups.byWeekday, WEEKDAYS[dayOfWeek(trade.closeDate)], trade);
    add(groups.byHoldingPeriod, holdingPeriodOf(trade.holdingDays), trade);
    add(groups.bySymbol, trade.symbol, trade);
    const bucket = profitLossBucketOf(trade.totalProfitLoss);
    byProfitLossBucket.set(bucket, (byProfitLossBucket.get(bucket) ?? 0) + 1);
  }
  return {
    all,
    ...groups,
    byProfitLossBucket,
    days: tradingDays(trades),
    largestWin: extreme(trades, (a, b) => a.totalProfitLoss.isPositive() && (b === null || a.totalProfitLoss.gt(b.totalProfitLoss))),
    largestLoss: extreme(trades, (a, b) => a.totalProfitLoss.isNegative() && (b === null || a.totalProfitLoss.lt(b.totalProfitLoss))),
  };
}

function withTrade(totals: TradeGroupTotals, trade: ClosedTrade): TradeGroupTotals {
  const pnl = trade.totalProfitLoss;
  const won = pnl.isPositive();
  const lost = pnl.isNegative();
  return {
    totalTrades: totals.totalTrades + 1,
    winningTrades: totals.winningTrades + (won ? 1 : 0),
    losingTrades: totals.losingTrades + (lost ? 1 : 0),
    grossProfit: won ? totals.grossProfit.add(pnl) : totals.grossProfit,
    grossLoss: lost ? totals.grossLoss.add(pnl) : totals.grossLoss,
    winnersHoldingDays: totals.winnersHoldingDays + (won ? trade.holdingDays : 0),
    losersHoldingDays: totals.losersHoldingDays + (lost ? trade.holdingDays : 0),
  };
}

export function statisticsOf(aggregates: TradeAggregates): TradeStatistics {
  const { all } = aggregates;
  const grossProfit = all.grossProfit;
  const grossLoss = all.grossLoss;
  const netProfitLoss = grossProfit.add(grossLoss);
  const averageWin = ratio(grossProfit, all.winningTrades);
  const averageLoss = ratio(grossLoss, all.losingTrades);
  const any = all.totalTrades > 0;
  return {
    totalTrades: all.totalTrades,
    winningTrades: all.winningTrades,
    losingTrades: all.losingTrades,
    breakevenTrades: all.totalTrades - all.winningTrades - all.losingTrades,
    winRate: percentOf(all.winningTrades, all.totalTrades),
    winRateExcludingBreakeven: percentOf(all.winningTrades, all.winningTrades + all.losingTrades),
    grossProfit,
    grossLoss,
    netProfitLoss,
    profitFactor: grossLoss.isZero() ? null : grossProfit.div(grossLoss.abs()),
    averageWin,
    averageLoss,
    payoffRatio: averageWin === null || averageLoss === null ? null : averageWin.div(averageLoss.abs()),
    expectancy: ratio(netProfitLoss, all.totalTrades),
    largestWin: aggregates.largestWin,
    largestLoss: aggregates.largestLoss,
    averageHoldingDaysWinners: ratio(Decimal.of(all.winnersHoldingDays), all.winningTrades),
    averageHoldingDaysLosers: ratio(Decimal.of(all.losersHoldingDays), all.losingTrades),
    days: dailyStatistics(aggregates.days),
    maxDrawdown: maxDrawdown(aggregates.days),
    bySide: any ? breakdown(aggregates.bySide, ['long', 'short'], []) : [],
    byWeekday: any ? breakdown(aggregates.byWeekday, [...WEEKDAYS.slice(1, 6), 'Saturday', 'Sunday'], [...WEEKDAYS.slice(1, 6)]) : [],
    byHoldingPeriod: any ? breakdown(aggregates.byHoldingPeriod, HOLDING_PERIODS, HOLDING_PERIODS) : [],
    ...topSymbols(aggregates.bySymbol),
    profitLossDistribution: any
      ? [...PROFIT_LOSS_EDGES, null].map((to, bucket) => ({
          from: bucket === 0 ? null : PROFIT_LOSS_EDGES[bucket - 1],
          to,
          trades: aggregates.byProfitLossBucket.get(bucket) ?? 0,
        }))
      : [],
  };
}

/** Each close date with trades and the sum of their P&L, in date order. */
export function tradingDays(trades: readonly ClosedTrade[]): DayAmount[] {
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

/** One row per key of `order` that has trades, and for each key of `always`, a row even without. */
function breakdown<K extends string>(groups: ReadonlyMap<K, TradeGroupTotals>, order: readonly K[], always: readonly K[]): Breakdown<K>[] {
  return order.filter((key) => groups.has(key) || always.includes(key)).map((key) => breakdownRow(key, groups.get(key) ?? NO_TRADES));
}

function breakdownRow<K>(key: K, totals: TradeGroupTotals): Breakdown<K> {
  const net = totals.grossProfit.add(totals.grossLoss);
  return {
    key,
    totalTrades: totals.totalTrades,
    winningTrades: totals.winningTrades,
    winRate: percentOf(totals.winningTrades, totals.totalTrades),
    netProfitLoss: net,
    averageProfitLoss: ratio(net, totals.totalTrades),
  };
}

function topSymbols(bySymbol: ReadonlyMap<string, TradeGroupTotals>): { topWinningSymbols: Breakdown<string>[]; topLosingSymbols: Breakdown<string>[] } {
  const all = [...bySymbol].map(([symbol, totals]) => breakdownRow(symbol, totals));
  const bySymbolName = (a: Breakdown<string>, b: Breakdown<string>) => (a.key < b.key ? -1 : 1);
  return {
    topWinningSymbols: all
      .filter((row) => row.netProfitLoss.isPositive())
      .sort((a, b) => b.netProfitLoss.cmp(a.netProfitLoss) || bySymbolName(a, b))
      .slice(0, TOP_SYMBOLS),
    topLosingSymbols: all
      .filter((row) => row.netProfitLoss.isNegative())
      .sort((a, b) => a.netProfitLoss.cmp(b.netProfitLoss) || bySymbolName(a, b))
      .slice(0, TOP_SYMBOLS),
  };
}

/** The headline figures of a group of trades, as `statisticsOf` defines them (a tag's row of `/api/tags`). */
export interface SummaryFigures {
  readonly totalTrades: number;
  readonly winningTrades: number;
  readonly losingTrades: number;
  readonly winRate: Decimal | null;
  readonly grossProfit: Decimal;
  readonly grossLoss: Decimal;
  readonly netProfitLoss: Decimal;
  readonly profitFactor: Decimal | null;
  readonly expectancy: Decimal | null;
}

export function summaryFigures(totals: Pick<TradeGroupTotals, 'totalTrades' | 'winningTrades' | 'losingTrades' | 'grossProfit' | 'grossLoss'>): SummaryFigures {
  const netProfitLoss = totals.grossProfit.add(totals.grossLoss);
  return {
    totalTrades: totals.totalTrades,
    winningTrades: totals.winningTrades,
    losingTrades: totals.losingTrades,
    winRate: percentOf(totals.winningTrades, totals.totalTrades),
    grossProfit: totals.grossProfit,
    grossLoss: totals.grossLoss,
    netProfitLoss,
    profitFactor: totals.grossLoss.isZero() ? null : totals.grossProfit.div(totals.grossLoss.abs()),
    expectancy: ratio(netProfitLoss, totals.totalTrades),
  };
}

function ratio(value: Decimal, count: number): Decimal | null {
  return count === 0 ? null : value.div(count);
}

function percentOf(part: number, whole: number): Decimal | null {
  return whole === 0 ? null : Decimal.of(part).mulDiv(Decimal.HUNDRED, Decimal.of(whole));
}

/** The first trade that `better` prefers to every earlier choice (the earliest of equals, in list order). */
function extreme(trades: readonly ClosedTrade[], better: (trade: ClosedTrade, chosen: ClosedTrade | null) => boolean): ClosedTrade | null {
  let chosen: ClosedTrade | null = null;
  for (const trade of trades) if (better(trade, chosen)) chosen = trade;
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
