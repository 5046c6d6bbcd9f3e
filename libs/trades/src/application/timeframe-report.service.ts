import { Injectable } from '@nestjs/common';
import type { OpenPosition } from '../domain/closed-trade.js';
import { parseTimeframeQuery, type TimeframeQuery, type TimeframeSelection } from '../domain/report-dates.js';
import { summariseTimeframe, type TimeframeTotals } from '../domain/timeframe.js';
import { TradeReports, type ReportScope } from './trade-reports.port.js';

/** What `/api/timeframe-data` shows: the totals of a range (or all time), by week and by month, and the positions at its end. */
export interface TimeframeResult {
  readonly selection: TimeframeSelection;
  /** The range asked for; for all time, the first and last day with activity (null without any). */
  readonly startDate: string | null;
  readonly endDate: string | null;
  readonly totals: TimeframeTotals;
  readonly positions: readonly OpenPosition[];
}

/** `/api/timeframe-data` and `/api/timeframe`: totals over a range (or all time), by week and by month. */
@Injectable()
export class TimeframeReport {
  constructor(private readonly reports: TradeReports) {}

  async timeframe(scope: ReportScope, query: TimeframeQuery): Promise<TimeframeResult> {
    const selection = parseTimeframeQuery(query);
    const range = selection.allTime ? null : { from: selection.start, to: selection.end };
    const days = await this.reports.dailyTotals(scope, range, selection.symbols);
    const positions = await this.reports.openPositions(scope, range === null ? null : range.to, selection.symbols);
    return {
      selection,
      startDate: range?.from ?? days[0]?.date ?? null,
      endDate: range?.to ?? days.at(-1)?.date ?? null,
      totals: summariseTimeframe(days),
      positions,
    };
  }
}
