import { Decimal, type IsoDate } from '@app/shared/domain';
import type { PeriodTotals } from './period-totals.js';

export type TradeSide = 'long' | 'short';
export type TradeSource = 'broker' | 'fifo';
export type TradeResult = 'Win' | 'Loss' | 'Breakeven';

/**
 * A completed trade as the reports show it (one lot: one buy leg, one sell leg), exact. The import
 * computes these (decisions.md §3); the reports only read them.
 */
export interface ReportedTrade {
  readonly symbol: string;
  readonly side: TradeSide;
  readonly source: TradeSource;
  /** Long: the purchase date. Short: the Buy to Cover date. */
  readonly buyDate: IsoDate;
  /** Long: the sale date. Short: the Sell Short date. */
  readonly sellDate: IsoDate;
  /** The closing date: the day, week and month the trade belongs to. */
  readonly closeDate: IsoDate;
  readonly openDate: IsoDate;
  readonly volume: Decimal;
  readonly buyPrice: Decimal;
  readonly sellPrice: Decimal;
  readonly costBasis: Decimal;
  readonly proceeds: Decimal;
  readonly totalProfitLoss: Decimal;
  readonly profitPerShare: Decimal;
  readonly returnPercentage: Decimal;
  readonly holdingDays: number;
  readonly tradeResult: TradeResult;
  readonly washSale: boolean | null;
  readonly disallowedLoss: Decimal | null;
  readonly term: string | null;
  readonly buyTxPrice: Decimal | null;
  readonly sellTxPrice: Decimal | null;
}

/** A dividend or distribution (a reversal is negative). */
export interface ReportedDividend {
  readonly transactionDate: IsoDate;
  readonly symbol: string;
  readonly action: string;
  readonly amount: Decimal;
}

/** Shares held in a symbol (negative: an open short). */
export interface OpenPosition {
  readonly symbol: string;
  readonly shares: Decimal;
}

/** The totals of a list of trades and dividends (a day's, a month's), exact. */
export function totalsOf(trades: readonly ReportedTrade[], dividends: readonly ReportedDividend[]): PeriodTotals {
  return {
    tradeCount: trades.length,
    winningTrades: trades.filter((trade) => trade.tradeResult === 'Win').length,
    tradingProfitLoss: Decimal.sum(trades.map((trade) => trade.totalProfitLoss)),
    dividendCount: dividends.length,
    dividends: Decimal.sum(dividends.map((dividend) => dividend.amount)),
  };
}
