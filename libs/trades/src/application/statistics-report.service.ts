import { Injectable } from '@nestjs/common';
import { Decimal, ValidationError, type IsoDate } from '@app/shared/domain';
import { parseTimeframeQuery, type TimeframeSelection } from '../domain/report-dates.js';
import type { ReportedDividend, ReportedTrade, TradeSide } from '../domain/reported-trade.js';
import { dateRangeOf } from '../domain/trade-list.js';
import { tradeStatistics } from '../domain/trade-statistics.js';
import { equityPointView, statisticsView, type EquityPointView, type StatisticsView } from './statistics-views.js';
import { TradeReports, type DayRange } from './trade-reports.port.js';

/** What `/api/statistics` and `/api/equity-curve` select: a timeframe, maybe some symbols, maybe one side. */
export interface StatisticsFilters {
  readonly selection: TimeframeSelection;
  readonly side: TradeSide | null;
}

export interface FiltersView {
  all_time: boolean;
  start_date: string | null;
  end_date: string | null;
  symbols: string[] | null;
  side: TradeSide | null;
}

/**
 * The timeframe query of `/api/timeframe-data` (`all=true`, or `start`/`end`, also spelled
 * `start_date`/`end_date`), `symbol` (repeatable, or comma-separated) and `side` (`long`|`short`).
 */
export function parseStatisticsQuery(query: Record<string, unknown>): StatisticsFilters {
  const selection = parseTimeframeQuery({
    all: query.all,
    start: query.start ?? query.start_date,
    end: query.end ?? query.end_date,
    symbols: query.symbol ?? query.symbols,
  });
  const side = query.side;
  if (side !== undefined && side !== 'long' && side !== 'short') throw new ValidationError("Parameter 'side' must be long or short");
  return { selection, side: side ?? null };
}

/** `/api/statistics` and `/api/equity-curve` (docs/api.md "Statistics"). */
@Injectable()
export class StatisticsReport {
  constructor(private readonly reports: TradeReports) {}

  async statistics(userId: number, query: Record<string, unknown>): Promise<{ filters: FiltersView; statistics: StatisticsView }> {
    const filters = parseStatisticsQuery(query);
    const trades = await this.trades(userId, filters);
    return { filters: filtersView(filters), statistics: statisticsView(tradeStatistics(trades)) };
  }

  /**
   * One point per day with a trade or a dividend. `side` selects trades only: a dividend belongs to
   * no side, so with `side` the points carry no dividends.
   */
  async equityCurve(userId: number, query: Record<string, unknown>): Promise<{ filters: FiltersView; points: EquityPointView[] }> {
    const filters = parseStatisticsQuery(query);
    const trades = await this.trades(userId, filters);
    const dividends = filters.side === null ? await this.dividends(userId, filters) : [];
    const days = new Map<IsoDate, { trading: Decimal; dividends: Decimal }>();
    const day = (date: IsoDate) => days.get(date) ?? days.set(date, { trading: Decimal.ZERO, dividends: Decimal.ZERO }).get(date)!;
    for (const trade of trades) day(trade.closeDate).trading = day(trade.closeDate).trading.add(trade.totalProfitLoss);
    for (const dividend of dividends) day(dividend.transactionDate).dividends = day(dividend.transactionDate).dividends.add(dividend.amount);
    let trading = Decimal.ZERO;
    let total = Decimal.ZERO;
    let peak = Decimal.ZERO;
    const points = [...days]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([date, amounts]) => {
        trading = trading.add(amounts.trading);
        total = total.add(amounts.trading).add(amounts.dividends);
        peak = Decimal.max(peak, trading);
        return equityPointView({ date, trading: amounts.trading, dividends: amounts.dividends, cumulativeTrading: trading, cumulativeTotal: total, drawdown: trading.sub(peak) });
      });
    return { filters: filtersView(filters), points };
  }

  private async trades(userId: number, filters: StatisticsFilters): Promise<ReportedTrade[]> {
    const trades = await this.reports.tradesClosedIn(userId, rangeOf(filters));
    const symbols = filters.selection.symbols === null ? null : new Set(filters.selection.symbols);
    return trades.filter((trade) => (symbols === null || symbols.has(trade.symbol)) && (filters.side === null || trade.side === filters.side));
  }

  private async dividends(userId: number, filters: StatisticsFilters): Promise<ReportedDividend[]> {
    const dividends = await this.reports.dividendsPaidIn(userId, rangeOf(filters));
    const symbols = filters.selection.symbols === null ? null : new Set(filters.selection.symbols);
    return symbols === null ? dividends : dividends.filter((dividend) => symbols.has(dividend.symbol));
  }
}

function rangeOf(filters: StatisticsFilters): DayRange {
  return dateRangeOf(filters.selection);
}

function filtersView(filters: StatisticsFilters): FiltersView {
  const { selection } = filters;
  return {
    all_time: selection.allTime,
    start_date: selection.allTime ? null : selection.start,
    end_date: selection.allTime ? null : selection.end,
    symbols: selection.symbols === null ? null : [...selection.symbols],
    side: filters.side,
  };
}
