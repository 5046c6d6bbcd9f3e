import { Injectable } from '@nestjs/common';
import { buildCalendarMonth, calendarWindow } from '../domain/calendar-month.js';
import { parseReportDate, reportMonth } from '../domain/report-dates.js';
import { totalsOf } from '../domain/closed-trade.js';
import { calendarDayView, daySummaryView, dividendView, tradeView, type CalendarDayView, type DaySummaryView, type DividendView, type TradeView } from './report-views.js';
import { TradeReports } from './trade-reports.port.js';

/** The trading side of the calendar views (`/api/calendar-data`, `/api/day-details`, served by the calendar context). */
@Injectable()
export class CalendarReports {
  constructor(private readonly reports: TradeReports) {}

  /** Every day of the month with its totals and its week's (the whole Monday–Sunday week). `monthNumber` is 1–12. */
  async month(userId: number, year: number, monthNumber: number): Promise<{ year: number; month: number; days: CalendarDayView[] }> {
    const month = reportMonth(year, monthNumber);
    const window = calendarWindow(month);
    const days = await this.reports.dailyTotals(userId, { from: window.from, to: window.to }, null);
    return { year, month: monthNumber, days: buildCalendarMonth(month, days).map(calendarDayView) };
  }

  /** One day's trades (closed that day), dividends and summary. */
  async day(
    userId: number,
    dateText: unknown,
  ): Promise<{ date: string; trades: TradeView[]; dividends: DividendView[]; summary: DaySummaryView }> {
    const date = parseReportDate(dateText, 'date');
    const range = { from: date, to: date };
    const trades = await this.reports.tradesClosedIn(userId, range);
    const dividends = await this.reports.dividendsPaidIn(userId, range);
    return { date, trades: trades.map(tradeView), dividends: dividends.map(dividendView), summary: daySummaryView(date, totalsOf(trades, dividends)) };
  }
}
