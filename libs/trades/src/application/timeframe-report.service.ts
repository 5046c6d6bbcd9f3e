import { Injectable } from '@nestjs/common';
import { parseTimeframeQuery, type TimeframeQuery } from '../domain/report-dates.js';
import { summariseTimeframe } from '../domain/timeframe.js';
import { openPositionView, periodView, type PeriodView } from './report-views.js';
import { TradeReports } from './trade-reports.port.js';

export interface TimeframeView {
  summary: PeriodView;
  weekly_summary: ({ week_start: string; period: string } & PeriodView)[];
  monthly_summary: ({ month_start: string; period: string } & PeriodView)[];
  open_positions: { symbol: string; shares: number }[];
  all_time: boolean;
  /** The range asked for; for all time, the first and last day with activity (null without any). */
  start_date: string | null;
  end_date: string | null;
  symbols: string[] | null;
}

/** `/api/timeframe-data` and `/api/timeframe`: totals over a range (or all time), by week and by month. */
@Injectable()
export class TimeframeReport {
  constructor(private readonly reports: TradeReports) {}

  async timeframe(userId: number, query: TimeframeQuery): Promise<{ data: TimeframeView }> {
    const selection = parseTimeframeQuery(query);
    const range = selection.allTime ? null : { from: selection.start, to: selection.end };
    const days = await this.reports.dailyTotals(userId, range, selection.symbols);
    const positions = await this.reports.openPositions(userId, range === null ? null : range.to, selection.symbols);
    const totals = summariseTimeframe(days);
    return {
      data: {
        summary: periodView(totals.summary),
        weekly_summary: totals.weekly.map((week) => ({ week_start: week.weekStart, period: week.weekStart, ...periodView(week.totals) })),
        monthly_summary: totals.monthly.map((month) => ({ month_start: `${month.month}-01`, period: month.month, ...periodView(month.totals) })),
        open_positions: positions.map(openPositionView),
        all_time: selection.allTime,
        start_date: range?.from ?? days[0]?.date ?? null,
        end_date: range?.to ?? days.at(-1)?.date ?? null,
        symbols: selection.symbols === null ? null : [...selection.symbols],
      },
    };
  }
}
