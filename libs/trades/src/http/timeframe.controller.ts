import { Controller, Get, Query, UseInterceptors } from '@nestjs/common';
import { CurrentUser, dataResponse, type AuthenticatedUser } from '@app/shared';
import { TimeframeReport } from '../application/timeframe-report.service.js';
import { ReportCacheInterceptor } from './report-cache.interceptor.js';
import { timeframeView } from './report-views.js';

type QueryParameters = Record<string, unknown>;

/** ../shared/spec/interface.md "Trading data": totals over a date range or all time, by week and by month. */
@Controller('api')
@UseInterceptors(ReportCacheInterceptor)
export class TimeframeController {
  constructor(private readonly report: TimeframeReport) {}

  /** `start`, `end` (YYYY-MM-DD), `all=true`, `symbols` (comma-separated). */
  @Get('timeframe-data')
  async timeframeData(@CurrentUser() user: AuthenticatedUser, @Query() query: QueryParameters) {
    return dataResponse(timeframeView(await this.report.timeframe(user.id, query)));
  }

  /** The same operation with `start_date` and `end_date` (../shared/spec/decisions.md §4). */
  @Get('timeframe')
  async timeframe(@CurrentUser() user: AuthenticatedUser, @Query() query: QueryParameters) {
    const { start_date: start, end_date: end, all, symbols } = query;
    return dataResponse(timeframeView(await this.report.timeframe(user.id, { start, end, all, symbols })));
  }
}
