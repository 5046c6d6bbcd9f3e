import type { IsoDate } from '@app/shared/domain';
import { Decimal } from '@app/shared/domain';
import type { MatchedTrade, MatchedDividend } from '../domain/matched-trade.js';
import type { OpenLot } from '../domain/open-lot-book.js';
import type { PositionHistory } from '../domain/position-history.js';
import { groupBy } from '../domain/group-by.js';

/**
 * Reference summaries computed in memory from a match result, exact to the last digit, for tests only:
 * the SQL read models (libs/trades) must agree with these. Trades count on their
 * closing date, dividends on their transaction date.
 */
export interface PeriodSummary {
  readonly totalTrades: number;
  readonly winningTrades: number;
  /** Winning ÷ total × 100, 0 without trades. */
  readonly winRate: Decimal;
  readonly tradingProfitLoss: Decimal;
  readonly totalDividends: Decimal;
  readonly totalReturnWithDividends: Decimal;
}

export function winRateOf(winning: number, total: number): Decimal {
  return total === 0 ? Decimal.ZERO : Decimal.of(winning).mulDiv(Decimal.HUNDRED, Decimal.of(total));
}

export function summarisePeriod(trades: readonly MatchedTrade[], dividends: readonly MatchedDividend[]): PeriodSummary {
  const winningTrades = trades.filter((trade) => trade.tradeResult === 'Win').length;
  const tradingProfitLoss = Decimal.sum(trades.map((trade) => trade.totalProfitLoss));
  const totalDividends = Decimal.sum(dividends.map((dividend) => dividend.amount));
  return {
    totalTrades: trades.length,
    winningTrades,
    winRate: winRateOf(winningTrades, trades.length),
    tradingProfitLoss,
    totalDividends,
    totalReturnWithDividends: tradingProfitLoss.add(totalDividends),
  };
}

/** Summaries per period key (e.g. `monthOf`, `weekStart`), for every period with a trade or a dividend. */
export function summariseByPeriod(
  trades: readonly MatchedTrade[],
  dividends: readonly MatchedDividend[],
  periodOf: (date: IsoDate) => string,
): Map<string, PeriodSummary> {
  const tradesBy = groupBy(trades, (trade) => periodOf(trade.closeDate));
  const dividendsBy = groupBy(dividends, (dividend) => periodOf(dividend.transactionDate));
  const keys = [...new Set([...tradesBy.keys(), ...dividendsBy.keys()])].sort();
  return new Map(keys.map((key) => [key, summarisePeriod(tradesBy.get(key) ?? [], dividendsBy.get(key) ?? [])]));
}

export interface SymbolSummary {
  readonly symbol: string;
  readonly companyName: string | null;
  readonly hasTrades: boolean;
  readonly totalTrades: number;
  readonly winningTrades: number;
  readonly winRatePercentage: Decimal;
  readonly tradingProfitLoss: Decimal;
  readonly avgProfitLoss: Decimal;
  readonly minProfitLoss: Decimal | null;
  readonly maxProfitLoss: Decimal | null;
  readonly avgReturnPercentage: Decimal;
  readonly minReturnPct: Decimal | null;
  readonly maxReturnPct: Decimal | null;
  readonly avgHoldingDays: Decimal;
  readonly totalVolume: Decimal;
  readonly totalCostBasis: Decimal;
  readonly totalDividendPayments: number;
  readonly totalDividends: Decimal;
  readonly avgDividendAmount: Decimal;
  /** Trading P&L plus dividends. */
  readonly totalReturn: Decimal;
  /** Closing dates. */
  readonly firstTradeDate: IsoDate | null;
  readonly lastTradeDate: IsoDate | null;
  /** Earliest opening date among its trades and open lots. */
  readonly firstOpenDate: IsoDate | null;
  readonly firstDividendDate: IsoDate | null;
  readonly lastDividendDate: IsoDate | null;
  readonly currentSharesHeld: Decimal;
  readonly hasOpenPosition: boolean;
}

export interface SymbolSummaryInput {
  readonly trades: readonly MatchedTrade[];
  readonly dividends: readonly MatchedDividend[];
  readonly positions: PositionHistory;
  readonly openLots: readonly OpenLot[];
  readonly companyNames: ReadonlyMap<string, string>;
}

function mean(values: readonly Decimal[]): Decimal {
  return values.length === 0 ? Decimal.ZERO : Decimal.sum(values).div(values.length);
}

function extreme(values: readonly Decimal[], pick: (a: Decimal, b: Decimal) => Decimal): Decimal | null {
  return values.length === 0 ? null : values.reduce(pick);
}

function earliest(dates: readonly IsoDate[]): IsoDate | null {
  return dates.length === 0 ? null : dates.reduce((a, b) => (b < a ? b : a));
}

function latest(dates: readonly IsoDate[]): IsoDate | null {
  return dates.length === 0 ? null : dates.reduce((a, b) => (b > a ? b : a));
}

/** One summary per symbol with trades, dividends or shares held (at `asOf`, or now), by symbol. */
export function summariseSymbols(input: SymbolSummaryInput, asOf?: IsoDate): SymbolSummary[] {
  const symbols = new Set<string>([
    ...input.trades.map((trade) => trade.symbol),
    ...input.dividends.map((dividend) => dividend.symbol).filter((symbol) => symbol !== ''),
    ...input.positions.openPositionsAt(asOf).map((position) => position.symbol),
  ]);
  return [...symbols].sort().map((symbol) => {
    const trades = input.trades.filter((trade) => trade.symbol === symbol);
    const dividends = input.dividends.filter((dividend) => dividend.symbol === symbol);
    const profits = trades.map((trade) => trade.totalProfitLoss);
    const returns = trades.map((trade) => trade.returnPercentage);
    const period = summarisePeriod(trades, dividends);
    const shares = input.positions.sharesAt(symbol, asOf);
    const openDates = [
      ...trades.map((trade) => trade.openDate),
      ...input.openLots.filter((lot) => lot.symbol === symbol).map((lot) => lot.openDate),
    ];
    return {
      symbol,
      companyName: input.companyNames.get(symbol) ?? null,
      hasTrades: trades.length > 0,
      totalTrades: trades.length,
      winningTrades: period.winningTrades,
      winRatePercentage: period.winRate,
      tradingProfitLoss: period.tradingProfitLoss,
      avgProfitLoss: mean(profits),
      minProfitLoss: extreme(profits, (a, b) => Decimal.min(a, b)),
      maxProfitLoss: extreme(profits, (a, b) => Decimal.max(a, b)),
      avgReturnPercentage: mean(returns),
      minReturnPct: extreme(returns, (a, b) => Decimal.min(a, b)),
      maxReturnPct: extreme(returns, (a, b) => Decimal.max(a, b)),
      avgHoldingDays: mean(trades.map((trade) => Decimal.of(trade.holdingDays))),
      totalVolume: Decimal.sum(trades.map((trade) => trade.volume)),
      totalCostBasis: Decimal.sum(trades.map((trade) => trade.costBasis)),
      totalDividendPayments: dividends.length,
      totalDividends: period.totalDividends,
      avgDividendAmount: mean(dividends.map((dividend) => dividend.amount)),
      totalReturn: period.totalReturnWithDividends,
      firstTradeDate: earliest(trades.map((trade) => trade.closeDate)),
      lastTradeDate: latest(trades.map((trade) => trade.closeDate)),
      firstOpenDate: earliest(openDates),
      firstDividendDate: earliest(dividends.map((dividend) => dividend.transactionDate)),
      lastDividendDate: latest(dividends.map((dividend) => dividend.transactionDate)),
      currentSharesHeld: shares,
      hasOpenPosition: !shares.isZero(),
    };
  });
}
