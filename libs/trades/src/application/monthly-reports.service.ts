import { Injectable } from '@nestjs/common';
import { parseReportMonth } from '../domain/report-dates.js';
import { totalsOf } from '../domain/closed-trade.js';
import {
  dividendView,
  monthSummaryView,
  monthTradeView,
  tradeView,
  type DividendView,
  type MonthSummaryView,
  type MonthTradeView,
  type TradeView,
} from './report-views.js';
import { TradeReports } from './trade-reports.port.js';

/** A `/api/months` item: the contract's two fields first, then the month's other summary figures. */
export type MonthListItem = MonthSummaryView;

/** `/api/months`, `/api/month/{month}`, `/api/trade-details/{month}`. */
@Injectable()
export class MonthlyReports {
  constructor(private readonly reports: TradeReports) {}

  /** Months with a trade or a dividend, newest first (each with its summary figures). */
  async months(userId: number): Promise<{ months: MonthListItem[] }> {
    const months = await this.reports.monthlyTotals(userId);
    return {
      months: months.map(({ month, totals }) => {
        const { month: _month, total_return_with_dividends, ...rest } = monthSummaryView(month, totals);
        return { month, total_return_with_dividends, ...rest };
      }),
    };
  }

  /** A month's summary, trades (by closing date; every detail is in `tradeDetails`) and dividends; a month without data gives zeros. */
  async month(userId: number, monthText: unknown): Promise<{ summary: MonthSummaryView; trades: MonthTradeView[]; dividends: DividendView[] }> {
    const month = parseReportMonth(monthText);
    const range = { from: month.firstDay, to: month.lastDay };
    const trades = await this.reports.tradesClosedIn(userId, range);
    const dividends = await this.reports.dividendsPaidIn(userId, range);
    return {
      summary: monthSummaryView(month.month, totalsOf(trades, dividends)),
      trades: trades.map(monthTradeView),
      dividends: dividends.map(dividendView),
    };
  }

  async tradeDetails(userId: number, monthText: unknown): Promise<{ month: string; trades: TradeView[] }> {
    const month = parseReportMonth(monthText);
    const trades = await this.reports.tradesClosedIn(userId, { from: month.firstDay, to: month.lastDay });
    return { month: month.month, trades: trades.map(tradeView) };
  }
}

