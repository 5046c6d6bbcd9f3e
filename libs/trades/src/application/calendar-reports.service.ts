import { Injectable } from '@nestjs/common';
import { buildCalendarMonth, calendarWindow, type CalendarDay } from '../domain/calendar-month.js';
import { parseReportDate, reportMonth } from '../domain/report-dates.js';
import { totalsOf, type ClosedTrade, type DividendPayment } from '../domain/closed-trade.js';
import type { PeriodTotals } from '../domain/period-totals.js';
import { TradeReports, type ReportScope } from './trade-reports.port.js';

/** A day's trades (closed that day), dividends and totals. */
export interface DayReport {
  readonly date: string;
  readonly totals: PeriodTotals;
  readonly trades: readonly ClosedTrade[];
  readonly dividends: readonly DividendPayment[];
}

/** The trading side of the calendar views (`/api/calendar-data`, `/api/day-details`). */
@Injectable()
export class CalendarReports {
  constructor(private readonly reports: TradeReports) {}

  /** Every day of the month with its totals and its week's (the whole Monday–Sunday week). `monthNumber` is 1–12. */
  async month(scope: ReportScope, year: number, monthNumber: number): Promise<{ year: number; month: number; days: CalendarDay[] }> {
    const month = reportMonth(year, monthNumber);
    const window = calendarWindow(month);
    const days = await this.reports.dailyTotals(scope, { from: window.from, to: window.to }, null);
    return { year, month: monthNumber, days: buildCalendarMonth(month, days) };
  }

  async day(scope: ReportScope, dateText: unknown): Promise<DayReport> {
    const date = parseReportDate(dateText, 'date');
    const range = { from: date, to: date };
    const trades = await this.reports.tradesClosedIn(scope, range);
    const dividends = await this.reports.dividendsPaidIn(scope, range);
    return { date, totals: totalsOf(trades, dividends), trades, dividends };
  }
}
