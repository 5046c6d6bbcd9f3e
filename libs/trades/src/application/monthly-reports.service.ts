import { Injectable } from '@nestjs/common';
import { parseReportMonth } from '../domain/report-dates.js';
import { totalsOf, type ClosedTrade, type DividendPayment, type MonthTrade } from '../domain/closed-trade.js';
import type { PeriodTotals } from '../domain/period-totals.js';
import type { MonthTotals } from '../domain/timeframe.js';
import { TradeReports, type DayRange, type ReportScope } from './trade-reports.port.js';

/** A month's totals, trades (by closing date) and dividends; the trades as the month's page shows them, or in full. */
export interface MonthReport<T extends MonthTrade = MonthTrade> {
  readonly month: string;
  readonly totals: PeriodTotals;
  readonly trades: readonly T[];
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
    const month = parseReportMonth(monthText);
    const range = { from: month.firstDay, to: month.lastDay };
    const trades = await this.reports.monthTradesJson(scope, range);
    const dividends = await this.reports.dividendsPaidIn(scope, range);
    const { tradeCount, winningTrades, tradingProfitLoss } = trades;
    return { month: month.month, totals: { ...totalsOf([], dividends), tradeCount, winningTrades, tradingProfitLoss }, tradesJson: trades.json, dividends };
  }

  /** The same with every field of the trades (a month's export file). */
  monthInFull(scope: ReportScope, monthText: unknown): Promise<MonthReport<ClosedTrade>> {
    return this.report(scope, monthText, (range) => this.reports.tradesClosedIn(scope, range));
  }

  async tradeDetails(scope: ReportScope, monthText: unknown): Promise<{ month: string; trades: ClosedTrade[] }> {
    const month = parseReportMonth(monthText);
    const trades = await this.reports.tradesClosedIn(scope, { from: month.firstDay, to: month.lastDay });
    return { month: month.month, trades };
  }

  private async report<T extends MonthTrade>(scope: ReportScope, monthText: unknown, tradesIn: (range: DayRange) => Promise<T[]>): Promise<MonthReport<T>> {
    const month = parseReportMonth(monthText);
    const range = { from: month.firstDay, to: month.lastDay };
    const trades = await tradesIn(range);
    const dividends = await this.reports.dividendsPaidIn(scope, range);
    return { month: month.month, totals: totalsOf(trades, dividends), trades, dividends };
  }
}
