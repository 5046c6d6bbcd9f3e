import { Controller, Get, Query, UseInterceptors } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentUser, dataResponse, type AuthenticatedUser } from '@app/shared';
import { ApiFailures, ApiJson, ApiSignedIn, integer, isoDate } from '@app/shared/openapi';
import { Clock, parseMonthNumber, parseYear, TradingCalendar } from '@app/calendar';
import { CalendarReports } from '../application/calendar-reports.service.js';
import { TradeJournal } from '../application/trade-journal.port.js';
import { ReportCacheInterceptor } from './report-cache.interceptor.js';
import { ApiAccountFilter, ReportScopes } from './report-scope.js';
import { calendarMonthView, dayView, idsOf } from './report-views.js';

/**
 * The trading calendar views (../shared/spec/interface.md "Calendar and exports"): a month's days with their
 * trading and dividend totals, and one day's details. The figures come from the trades context's
 * reports; the calendar context says which month it is in New York and checks the year and month asked for.
 */
@ApiTags('Calendar')
@ApiSignedIn()
@Controller('api')
@UseInterceptors(ReportCacheInterceptor)
export class CalendarReportsController {
  constructor(
    private readonly reports: CalendarReports,
    private readonly clock: Clock,
    private readonly calendar: TradingCalendar,
    private readonly journal: TradeJournal,
    private readonly scopes: ReportScopes,
  ) {}

  /** `year` (four digits) and `month` (1–12), each defaulting to today's in New York. */
  @Get('calendar-data')
  @ApiOperation({ summary: "A month's days with their trading and dividend totals" })
  @ApiQuery({ name: 'year', required: false, schema: integer({ minimum: 1900, maximum: 2199 }), description: "Default: this year in New York." })
  @ApiQuery({ name: 'month', required: false, schema: integer({ minimum: 1, maximum: 12 }), description: "Default: this month in New York." })
  @ApiAccountFilter()
  @ApiJson('CalendarResponse', 'The days of the month.')
  @ApiFailures(400, 404)
  async calendarData(@CurrentUser() user: AuthenticatedUser, @Query('year') year?: unknown, @Query('month') month?: unknown, @Query('account') account?: unknown) {
    const today = this.calendar.dateAt(this.clock.now());
    const chosenYear = year === undefined ? Number(today.slice(0, 4)) : parseYear(year);
    const chosenMonth = month === undefined ? Number(today.slice(5, 7)) : parseMonthNumber(month);
    return dataResponse(calendarMonthView(await this.reports.month(await this.scopes.of(user.id, account), chosenYear, chosenMonth)));
  }

  /** `date` (YYYY-MM-DD), required. */
  @Get('day-details')
  @ApiOperation({ summary: "One day's trades, dividends and totals" })
  @ApiQuery({ name: 'date', required: true, schema: isoDate() })
  @ApiAccountFilter()
  @ApiJson('DayDetailsResponse', 'The day.')
  @ApiFailures(400, 404)
  async dayDetails(@CurrentUser() user: AuthenticatedUser, @Query('date') date?: unknown, @Query('account') account?: unknown) {
    const day = await this.reports.day(await this.scopes.of(user.id, account), date);
    return dataResponse(dayView(day, await this.journal.annotations(user.id, idsOf(day.trades))));
  }
}
