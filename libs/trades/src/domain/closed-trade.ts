import { Decimal, type IsoDate } from '@app/shared/domain';
import type { PeriodTotals } from './period-totals.js';

export type TradeSide = 'long' | 'short';
export type TradeSource = 'broker' | 'fifo';
export type TradeResult = 'Win' | 'Loss' | 'Breakeven';

/**
 * A completed trade: one lot, one buy leg and one sell leg. All figures exact; round them only when
 * writing a response or a file. The import computes them (../shared/spec/decisions.md §3) and writes them through
 * `TradeLedger`; the reports read them. Field names map one to one onto the API's snake_case names.
 */
export interface ClosedTrade {
  /** The stable id (docs/api.md "Trade list") of a stored trade; absent on a trade being derived. */
  readonly id?: string;
  readonly symbol: string;
  readonly side: TradeSide;
  readonly source: TradeSource;
  /** Long: the purchase date. Short: the Buy to Cover date. */
  readonly buyDate: IsoDate;
  /** Long: the sale date. Short: the Sell Short date. */
  readonly sellDate: IsoDate;
  /** The closing transaction's date (the sale, or the cover): the day, week and month it belongs to. */
  readonly closeDate: IsoDate;
  /** The opening transaction's date (purchase, or short sale). */
  readonly openDate: IsoDate;
  readonly volume: Decimal;
  /** Cost basis ÷ volume, fees included (broker trades: the lot's Cost Per Share). */
  readonly buyPrice: Decimal;
  /** Proceeds ÷ volume, fees included (broker trades: the lot's Proceeds Per Share). */
  readonly sellPrice: Decimal;
  /** What the shares cost (for a short: what covering cost), fees included. */
  readonly costBasis: Decimal;
  /** What the shares brought in, net of fees. */
  readonly proceeds: Decimal;
  /** Proceeds − cost basis (the broker's Gain/Loss for broker trades). */
  readonly totalProfitLoss: Decimal;
  readonly profitPerShare: Decimal;
  /** Total P&L ÷ cost basis × 100. */
  readonly returnPercentage: Decimal;
  readonly holdingDays: number;
  readonly tradeResult: TradeResult;
  /** Broker trades only; null for FIFO trades. */
  readonly washSale: boolean | null;
  readonly disallowedLoss: Decimal | null;
  readonly term: string | null;
  /** Raw execution prices of the two legs (split-adjusted), when known. */
  readonly buyTxPrice: Decimal | null;
  readonly sellTxPrice: Decimal | null;
}

/** A dividend or distribution (a `Rev …` reversal is negative). */
export interface DividendPayment {
  readonly transactionDate: IsoDate;
  readonly symbol: string;
  /** The broker's Action text, trimmed. */
  readonly action: string;
  readonly amount: Decimal;
}

/** The shares held in a symbol at the end of a day on which they changed (negative: an open short). */
export interface PositionChange {
  readonly symbol: string;
  readonly date: IsoDate;
  readonly shares: Decimal;
}

/** Shares held in a symbol (negative: an open short). */
export interface OpenPosition {
  readonly symbol: string;
  readonly shares: Decimal;
  /**
   * What the shares open at that moment cost, fees included (a short: minus its proceeds), from the
   * imports' open lots and the trades that closed later; null when the imports kept no lots for it.
   */
  readonly costBasis: Decimal | null;
  /** The market-data cache's latest price of the symbol, if any. */
  readonly lastPrice: Decimal | null;
}

/**
 * A trade as a month's report lists it (`/api/month/{month}`): what its rows show, without the cost, the
 * proceeds and the broker's lot details, which a 3,000-trade month would read for nothing.
 */
export type MonthTrade = Pick<
  ClosedTrade,
  'symbol' | 'side' | 'source' | 'buyDate' | 'sellDate' | 'closeDate' | 'buyPrice' | 'sellPrice' | 'volume' | 'totalProfitLoss' | 'returnPercentage' | 'tradeResult' | 'holdingDays' | 'washSale'
>;

/** What a month's report shows of a trade. */
export function monthTradeOf(trade: ClosedTrade): MonthTrade {
  const { symbol, side, source, buyDate, sellDate, closeDate, buyPrice, sellPrice, volume, totalProfitLoss, returnPercentage, tradeResult, holdingDays, washSale } = trade;
  return { symbol, side, source, buyDate, sellDate, closeDate, buyPrice, sellPrice, volume, totalProfitLoss, returnPercentage, tradeResult, holdingDays, washSale };
}

/** The totals of a list of trades and dividends (a day's, a month's), exact. */
export function totalsOf(trades: readonly Pick<ClosedTrade, 'tradeResult' | 'totalProfitLoss'>[], dividends: readonly DividendPayment[]): PeriodTotals {
  return {
    tradeCount: trades.length,
    winningTrades: trades.filter((trade) => trade.tradeResult === 'Win').length,
    tradingProfitLoss: Decimal.sum(trades.map((trade) => trade.totalProfitLoss)),
    dividendCount: dividends.length,
    dividends: Decimal.sum(dividends.map((dividend) => dividend.amount)),
  };
}

/** Win / Loss / Breakeven by the P&L as shown (to the cent), so a trade shown as 0.00 is Breakeven. */
export function tradeResultOf(profitLoss: Decimal): TradeResult {
  const shown = profitLoss.round(2);
  return shown.isPositive() ? 'Win' : shown.isNegative() ? 'Loss' : 'Breakeven';
}

/** P&L ÷ cost × 100, 0 when there is no cost. */
export function returnPercentageOf(profitLoss: Decimal, costBasis: Decimal): Decimal {
  return costBasis.isZero() ? Decimal.ZERO : profitLoss.mulDiv(Decimal.HUNDRED, costBasis);
}
