import { Injectable } from '@nestjs/common';
import { parseReportMonth } from '../domain/report-dates.js';
import { totalsOf, type ClosedTrade, type DividendPayment } from '../domain/closed-trade.js';
import type { PeriodTotals } from '../domain/period-totals.js';
import type { MonthTotals } from '../domain/timeframe.js';
import { TradeReports, type DayRange, type ReportScope } from './trade-reports.port.js';

/** A month's totals, trades (by closing date, every field) and dividends: a month's export file. */
export interface MonthReport {
  readonly month: string;
  readonly totals: PeriodTotals;
  readonly trades: readonly ClosedTrade[];
  readonly dividends: readonly DividendPayment[];
}

/** A month's totals, trades (as JSON text, `MonthTradesJson`) and dividends: what its page shows. */
export interface MonthPage {
  readonly month: string;
  readonly totals: PeriodTotals;
  readonly tradesJson: string;
  readonly dividends: readonly DividendPayment[];
}

/** `/api/months`, `/api/month/{month}`, `/api/trade-details/{month}`. */
@Injectable()
export class MonthlyReports {
  constructor(private readonly reports: TradeReports) {}

  /** Months with a trade or a dividend, newest first, with their totals. */
  months(scope: ReportScope): Promise<MonthTotals[]> {
    return this.reports.monthlyTotals(scope);
  }

  /** A month's summary, trades and dividends; a month without data gives zeros. */
  async month(scope: ReportScope, monthText: unknown): Promise<MonthPage> {
    const { month, range } = monthOf(monthText);
    const trades = await this.reports.monthTradesJson(scope, range);
    const dividends = await this.reports.dividendsPaidIn(scope, range);
    const { tradeCount, winningTrades, tradingProfitLoss } = trades;
    return { month, totals: { ...totalsOf([], dividends), tradeCount, winningTrades, tradingProfitLoss }, tradesJson: trades.json, dividends };
  }

  /** The same with every field of the trades (a month's export file). */
  async monthInFull(scope: ReportScope, monthText: unknown): Promise<MonthReport> {
    const { month, range } = monthOf(monthText);
    const trades = await this.reports.tradesClosedIn(scope, range);
    const dividends = await this.reports.dividendsPaidIn(scope, range);
    return { month, totals: totalsOf(trades, dividends), trades, dividends };
  }

  async tradeDetails(scope: ReportScope, monthText: unknown): Promise<{ month: string; trades: ClosedTrade[] }> {
    const { month, range } = monthOf(monthText);
    return { month, trades: await this.reports.tradesClosedIn(scope, range) };
  }
}

/** The month a request names (`YYYY-MM`; a ValidationError otherwise) and its days. */
function monthOf(monthText: unknown): { month: string; range: DayRange } {
  const month = parseReportMonth(monthText);
  return { month: month.month, range: { from: month.firstDay, to: month.lastDay } };
}
