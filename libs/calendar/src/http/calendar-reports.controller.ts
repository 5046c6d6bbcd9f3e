import { Controller, Get, Query, UseInterceptors } from '@nestjs/common';
import { CurrentUser, dataResponse, type AuthenticatedUser } from '@app/shared';
import { CalendarReports, ReportCacheInterceptor } from '@app/trades';
import { Clock } from '../application/clock.port.js';
import { assertMonth, parseYear } from '../domain/iso-date.js';
import { InvalidMonthError } from '../domain/trading-calendar.errors.js';
import { TradingCalendar } from '../domain/trading-calendar.js';

const MONTH_NUMBER = /^\d{1,2}$/;

/**
 * The trading calendar views (../shared/spec/interface.md "Calendar and exports"): a month's days with their
 * trading and dividend totals, and one day's details. The figures come from the trades context's
 * read model; this controller chooses the month (the current New York month by default).
 */
@Controller('api')
@UseInterceptors(ReportCacheInterceptor)
export class CalendarReportsController {
  constructor(
    private readonly reports: CalendarReports,
    private readonly clock: Clock,
    private readonly calendar: TradingCalendar,
  ) {}

  /** `year` (four digits) and `month` (1–12), each defaulting to today's in New York. */
  @Get('calendar-data')
  async calendarData(@CurrentUser() user: AuthenticatedUser, @Query('year') year?: unknown, @Query('month') month?: unknown) {
    const today = this.calendar.dateAt(this.clock.now());
    const chosenYear = year === undefined ? Number(today.slice(0, 4)) : parseYear(year);
    const chosenMonth = month === undefined ? Number(today.slice(5, 7)) : parseMonthNumber(month);
    return dataResponse(await this.reports.month(user.id, chosenYear, chosenMonth));
  }

  /** `date` (YYYY-MM-DD), required. */
  @Get('day-details')
  async dayDetails(@CurrentUser() user: AuthenticatedUser, @Query('date') date?: unknown) {
    return dataResponse(await this.reports.day(user.id, date));
  }
}

function parseMonthNumber(input: unknown): number {
  const text = typeof input === 'string' ? input.trim() : String(input);
  if (typeof input !== 'string' || !MONTH_NUMBER.test(text)) throw new InvalidMonthError(text);
  const month = Number(text);
  assertMonth(month);
  return month;
}
