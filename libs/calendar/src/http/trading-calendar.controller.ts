import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Public } from '@app/shared';
import { ApiFailures, ApiJson, ApiSignedIn, integer } from '@app/shared/openapi';
import { Clock } from '../application/clock.port.js';
import { parseYear } from '../domain/iso-date.js';
import type { CalendarEntry } from '../domain/nyse-holidays.js';
import { TradingCalendar, type TradingCalendarMetrics } from '../domain/trading-calendar.js';

export interface HolidayResponse {
  date: string;
  name: string;
  type: 'holiday' | 'early_close';
  close_time?: string;
}

@ApiTags('Calendar')
@Controller('api/trading-calendar')
export class TradingCalendarController {
  constructor(
    private readonly clock: Clock,
    private readonly calendar: TradingCalendar,
  ) {}

  /** Public, no authentication (../shared/spec/interface.md). */
  @Public()
  @Get('metrics')
  @ApiOperation({ summary: 'The NYSE session now: status, hours, next trading day, trading-day counts (public)' })
  @ApiJson('TradingCalendarMetricsResponse', 'The metrics.')
  metrics(): { success: true; metrics: TradingCalendarMetrics } {
    return { success: true, metrics: this.calendar.metrics(this.clock.now()) };
  }

  /** Beyond the contract: the year's NYSE holidays and early closes. Absent `year` = the current New York year. */
  @ApiSignedIn()
  @ApiOperation({ summary: "A year's NYSE holidays and early closes" })
  @ApiQuery({ name: 'year', required: false, schema: integer({ minimum: 1998, maximum: 2100 }), description: 'Default: this year in New York.' })
  @ApiJson('HolidaysResponse', 'The holidays.')
  @ApiFailures(400)
  @Get('holidays')
  holidays(@Query('year') year?: unknown): { success: true; year: number; holidays: HolidayResponse[] } {
    const chosen = year === undefined ? this.currentYear() : parseYear(year);
    return { success: true, year: chosen, holidays: this.calendar.holidaysOf(chosen).map(toHolidayResponse) };
  }

  private currentYear(): number {
    return Number(this.calendar.dateAt(this.clock.now()).slice(0, 4));
  }
}

function toHolidayResponse(entry: CalendarEntry): HolidayResponse {
  return entry.type === 'early_close'
    ? { date: entry.date, name: entry.name, type: entry.type, close_time: entry.closeTime }
    : { date: entry.date, name: entry.name, type: entry.type };
}
