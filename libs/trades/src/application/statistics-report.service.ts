import { Injectable } from '@nestjs/common';
import { Decimal, ValidationError, type IsoDate } from '@app/shared/domain';
import { parseTimeframeQuery, type TimeframeSelection } from '../domain/report-dates.js';
import type { TradeSide } from '../domain/closed-trade.js';
import { dateRangeOf, parseTagFilter, type TagFilter, type TradeFilters } from '../domain/trade-list.js';
import { statisticsOf, type TradeStatistics } from '../domain/trade-statistics.js';
import { TradeReports, type DayRange, type ReportScope } from './trade-reports.port.js';

/** What `/api/statistics` and `/api/equity-curve` select: a timeframe, maybe some symbols, maybe one side. */
export interface StatisticsFilters extends TagFilter {
  readonly selection: TimeframeSelection;
  readonly side: TradeSide | null;
}

/** A point of the realized equity curve: one day with a trade or a dividend. */
export interface EquityPoint {
  readonly date: IsoDate;
  readonly trading: Decimal;
  readonly dividends: Decimal;
  readonly cumulativeTrading: Decimal;
  readonly cumulativeTotal: Decimal;
  /** Cumulative trading P&L minus its running peak (≤ 0). */
  readonly drawdown: Decimal;
}

/**
 * The timeframe query of `/api/timeframe-data` (`all=true`, or `start`/`end`, also spelled
 * `start_date`/`end_date`), `symbol` (repeatable, or comma-separated), `side` (`long`|`short`), `tag`
 * (repeatable) and `untagged`.
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
  return { selection, side: side ?? null, ...parseTagFilter(query) };
}

/** `/api/statistics` and `/api/equity-curve` (docs/api.md "Statistics"). */
@Injectable()
export class StatisticsReport {
  constructor(private readonly reports: TradeReports) {}

  async statistics(scope: ReportScope, query: Record<string, unknown>): Promise<{ filters: StatisticsFilters; statistics: TradeStatistics }> {
    const filters = parseStatisticsQuery(query);
    const aggregates = await this.reports.tradeAggregates(scope, tradeFiltersOf(filters));
    return { filters, statistics: statisticsOf(aggregates) };
  }

  /**
   * One point per day with a trade or a dividend. `side` and the tag filters select trades only: a
   * dividend belongs to no side and carries no tag, so with them the points carry no dividends.
   */
  async equityCurve(scope: ReportScope, query: Record<string, unknown>): Promise<{ filters: StatisticsFilters; points: EquityPoint[] }> {
    const filters = parseStatisticsQuery(query);
    const { selection } = filters;
    const days =
      filters.side === null && filters.tags === null && !filters.untagged
        ? (await this.reports.dailyTotals(scope, selection.allTime ? null : rangeOf(filters), selection.symbols)).map((day) => ({
            date: day.date,
            trading: day.tradingProfitLoss,
            dividends: day.dividends,
          }))
        : (await this.reports.tradeAggregates(scope, tradeFiltersOf(filters))).days.map((day) => ({ date: day.date, trading: day.amount, dividends: Decimal.ZERO }));
    let trading = Decimal.ZERO;
    let total = Decimal.ZERO;
    let peak = Decimal.ZERO;
    const points = days.map((day): EquityPoint => {
      trading = trading.add(day.trading);
      total = total.add(day.trading).add(day.dividends);
      peak = Decimal.max(peak, trading);
      return { date: day.date, trading: day.trading, dividends: day.dividends, cumulativeTrading: trading, cumulativeTotal: total, drawdown: trading.sub(peak) };
    });
    return { filters, points };
  }
}

/** The statistics' filters as the trade list's: a timeframe, symbols and a side. */
function tradeFiltersOf(filters: StatisticsFilters): TradeFilters {
  return {
    selection: filters.selection,
    side: filters.side,
    result: null,
    source: null,
    minHoldingDays: null,
    maxHoldingDays: null,
    tags: filters.tags,
    untagged: filters.untagged,
  };
}

function rangeOf(filters: StatisticsFilters): DayRange {
  return dateRangeOf(filters.selection);
}
