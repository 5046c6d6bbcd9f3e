import type { Decimal, IsoDate } from '@app/shared/domain';
import type { DayTotals } from '../domain/period-totals.js';
import type { OpenPosition, DividendPayment, ClosedTrade } from '../domain/closed-trade.js';
import type { SymbolAccountTotals } from '../domain/symbol-summary.js';
import type { TradeFilters, TradeListPage, TradeListQuery } from '../domain/trade-list.js';
import type { TradeAggregates } from '../domain/trade-statistics.js';
import type { MonthTotals } from '../domain/timeframe.js';

/** Days from `from` to `to`, both included. */
export interface DayRange {
  readonly from: IsoDate;
  readonly to: IsoDate;
}

/** Whose reports: a user's, all their accounts or one of them (`accountId`). */
export interface ReportScope {
  readonly userId: number;
  readonly accountId: number | null;
}

/**
 * A month's trades as its page shows them, made by the store as one JSON array (each trade the object
 * `monthTradeView` makes of its `MonthTrade`), with what they add up to.
 */
export interface MonthTradesJson {
  readonly json: string;
  readonly tradeCount: number;
  readonly winningTrades: number;
  readonly tradingProfitLoss: Decimal;
}

/**
 * The read model of one user's trading record (the trades, dividends and positions the import
 * derived, plus their rollups). Every method is scoped to the user (and to one of their accounts when
 * the scope names one): nobody reads another's data.
 * Lists come in a stable order: by date, then as the import recorded them.
 */
export abstract class TradeReports {
  /** Months with a trade or a dividend, newest first. */
  abstract monthlyTotals(scope: ReportScope): Promise<MonthTotals[]>;

  /** Days with a trade or a dividend, oldest first; within `range` when given; only `symbols` when given. */
  abstract dailyTotals(scope: ReportScope, range: DayRange | null, symbols: readonly string[] | null): Promise<DayTotals[]>;

  /** Trades whose closing date is in `range`. */
  abstract tradesClosedIn(scope: ReportScope, range: DayRange): Promise<ClosedTrade[]>;

  /**
   * The same trades as the month's page sends them (`MonthTradesJson`, in the same order): a month of
   * an active trader's tens of thousands of trades goes out without a trade or view object made of each.
   */
  abstract monthTradesJson(scope: ReportScope, range: DayRange): Promise<MonthTradesJson>;

  /**
   * One page of the trades `query` selects, in its sort and order, ties in the import's order
   * (account, then sequence, both in the same direction), with the count and totals of all it selects.
   */
  abstract tradeListPage(scope: ReportScope, query: TradeListQuery): Promise<TradeListPage>;

  /** Every trade `filters` select, by close date, then as the import recorded them. */
  abstract tradesMatching(scope: ReportScope, filters: TradeFilters): Promise<ClosedTrade[]>;

  /** The trades `filters` select, summed every way the statistics need (`aggregateTrades` of them). */
  abstract tradeAggregates(scope: ReportScope, filters: TradeFilters): Promise<TradeAggregates>;

  /** Dividends paid in `range`. */
  abstract dividendsPaidIn(scope: ReportScope, range: DayRange): Promise<DividendPayment[]>;

  abstract tradesOfSymbol(scope: ReportScope, symbol: string): Promise<ClosedTrade[]>;

  abstract dividendsOfSymbol(scope: ReportScope, symbol: string): Promise<DividendPayment[]>;

  /** Per account and symbol; only `symbol` when given. */
  abstract symbolTotals(scope: ReportScope, symbol?: string): Promise<SymbolAccountTotals[]>;

  /** Non-zero positions at the end of `asOf` (now when null), by symbol; only `symbols` when given. */
  abstract openPositions(scope: ReportScope, asOf: IsoDate | null, symbols: readonly string[] | null): Promise<OpenPosition[]>;

  /** The id of the user's brokerage account with this number; null when they have none. */
  abstract accountNamed(userId: number, accountNumber: string): Promise<number | null>;
}
