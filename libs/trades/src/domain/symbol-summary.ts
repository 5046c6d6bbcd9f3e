import { Decimal, type IsoDate } from '@app/shared/domain';
import { winRate } from './period-totals.js';

/**
 * What the read model keeps per symbol and brokerage account: sums, extremes and first/last dates,
 * so that several accounts combine exactly (means are taken only after combining).
 */
export interface SymbolAccountTotals {
  readonly symbol: string;
  readonly companyName: string | null;
  readonly tradeCount: number;
  readonly winningTrades: number;
  readonly tradingProfitLoss: Decimal;
  readonly minProfitLoss: Decimal | null;
  readonly maxProfitLoss: Decimal | null;
  readonly sumReturnPercentage: Decimal;
  readonly minReturnPercentage: Decimal | null;
  readonly maxReturnPercentage: Decimal | null;
  readonly sumHoldingDays: number;
  readonly totalVolume: Decimal;
  readonly totalCostBasis: Decimal;
  readonly firstTradeDate: IsoDate | null;
  readonly lastTradeDate: IsoDate | null;
  readonly firstOpenDate: IsoDate | null;
  readonly dividendCount: number;
  readonly dividends: Decimal;
  readonly firstDividendDate: IsoDate | null;
  readonly lastDividendDate: IsoDate | null;
  /** Shares held now (negative: an open short). */
  readonly currentShares: Decimal;
}

/** One symbol's trading and dividend record (../shared/spec/interface.md "Symbol summary item" and "Symbol detail summary"). */
export interface SymbolSummary {
  readonly symbol: string;
  readonly companyName: string | null;
  readonly totalTrades: number;
  readonly winningTrades: number;
  readonly winRate: Decimal;
  readonly tradingProfitLoss: Decimal;
  /** Means of the exact values; 0 without trades. */
  readonly avgProfitLoss: Decimal;
  readonly avgReturnPercentage: Decimal;
  readonly avgHoldingDays: Decimal;
  /** Null without trades. */
  readonly minProfitLoss: Decimal | null;
  readonly maxProfitLoss: Decimal | null;
  readonly minReturnPercentage: Decimal | null;
  readonly maxReturnPercentage: Decimal | null;
  readonly totalVolume: Decimal;
  readonly totalCostBasis: Decimal;
  /** Closing dates. */
  readonly firstTradeDate: IsoDate | null;
  readonly lastTradeDate: IsoDate | null;
  /** The earliest opening date of its trades and positions. */
  readonly firstOpenDate: IsoDate | null;
  readonly dividendCount: number;
  readonly totalDividends: Decimal;
  readonly avgDividendAmount: Decimal;
  readonly firstDividendDate: IsoDate | null;
  readonly lastDividendDate: IsoDate | null;
  /** Trading P&L plus dividends. */
  readonly totalReturn: Decimal;
  readonly currentShares: Decimal;
}

function mean(sum: Decimal, count: number): Decimal {
  return count === 0 ? Decimal.ZERO : sum.div(count);
}

function pick<T>(a: T | null, b: T | null, choose: (a: T, b: T) => T): T | null {
  return a === null ? b : b === null ? a : choose(a, b);
}

const earlier = (a: IsoDate, b: IsoDate): IsoDate => (b < a ? b : a);
const later = (a: IsoDate, b: IsoDate): IsoDate => (b > a ? b : a);

function combine(a: SymbolAccountTotals, b: SymbolAccountTotals): SymbolAccountTotals {
  return {
    symbol: a.symbol,
    companyName: a.companyName ?? b.companyName,
    tradeCount: a.tradeCount + b.tradeCount,
    winningTrades: a.winningTrades + b.winningTrades,
    tradingProfitLoss: a.tradingProfitLoss.add(b.tradingProfitLoss),
    minProfitLoss: pick(a.minProfitLoss, b.minProfitLoss, (x, y) => Decimal.min(x, y)),
    maxProfitLoss: pick(a.maxProfitLoss, b.maxProfitLoss, (x, y) => Decimal.max(x, y)),
    sumReturnPercentage: a.sumReturnPercentage.add(b.sumReturnPercentage),
    minReturnPercentage: pick(a.minReturnPercentage, b.minReturnPercentage, (x, y) => Decimal.min(x, y)),
    maxReturnPercentage: pick(a.maxReturnPercentage, b.maxReturnPercentage, (x, y) => Decimal.max(x, y)),
    sumHoldingDays: a.sumHoldingDays + b.sumHoldingDays,
    totalVolume: a.totalVolume.add(b.totalVolume),
    totalCostBasis: a.totalCostBasis.add(b.totalCostBasis),
    firstTradeDate: pick(a.firstTradeDate, b.firstTradeDate, earlier),
    lastTradeDate: pick(a.lastTradeDate, b.lastTradeDate, later),
    firstOpenDate: pick(a.firstOpenDate, b.firstOpenDate, earlier),
    dividendCount: a.dividendCount + b.dividendCount,
    dividends: a.dividends.add(b.dividends),
    firstDividendDate: pick(a.firstDividendDate, b.firstDividendDate, earlier),
    lastDividendDate: pick(a.lastDividendDate, b.lastDividendDate, later),
    currentShares: a.currentShares.add(b.currentShares),
  };
}

function summarise(totals: SymbolAccountTotals): SymbolSummary {
  const trades = totals.tradeCount;
  return {
    symbol: totals.symbol,
    companyName: totals.companyName,
    totalTrades: trades,
    winningTrades: totals.winningTrades,
    winRate: winRate(totals.winningTrades, trades),
    tradingProfitLoss: totals.tradingProfitLoss,
    avgProfitLoss: mean(totals.tradingProfitLoss, trades),
    avgReturnPercentage: mean(totals.sumReturnPercentage, trades),
    avgHoldingDays: mean(Decimal.of(totals.sumHoldingDays), trades),
    minProfitLoss: totals.minProfitLoss,
    maxProfitLoss: totals.maxProfitLoss,
    minReturnPercentage: totals.minReturnPercentage,
    maxReturnPercentage: totals.maxReturnPercentage,
    totalVolume: totals.totalVolume,
    totalCostBasis: totals.totalCostBasis,
    firstTradeDate: totals.firstTradeDate,
    lastTradeDate: totals.lastTradeDate,
    firstOpenDate: totals.firstOpenDate,
    dividendCount: totals.dividendCount,
    totalDividends: totals.dividends,
    avgDividendAmount: mean(totals.dividends, totals.dividendCount),
    firstDividendDate: totals.firstDividendDate,
    lastDividendDate: totals.lastDividendDate,
    totalReturn: totals.tradingProfitLoss.add(totals.dividends),
    currentShares: totals.currentShares,
  };
}

/**
 * One summary per symbol with trades, dividends or shares held now (../shared/spec/decisions.md §3), by symbol,
 * combining the symbol's accounts.
 */
export function summariseSymbols(rows: readonly SymbolAccountTotals[]): SymbolSummary[] {
  const bySymbol = new Map<string, SymbolAccountTotals>();
  for (const row of rows) {
    const seen = bySymbol.get(row.symbol);
    bySymbol.set(row.symbol, seen === undefined ? row : combine(seen, row));
  }
  return [...bySymbol.values()]
    .filter((totals) => totals.tradeCount > 0 || totals.dividendCount > 0 || !totals.currentShares.isZero())
    .sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0))
    .map(summarise);
}
