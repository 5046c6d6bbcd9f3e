import { Controller, Get, Query, UseInterceptors } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentUser, dataResponse, type AuthenticatedUser } from '@app/shared';
import { ApiFailures, ApiJson, ApiSignedIn, isoDate, oneOfStrings, string } from '@app/shared/openapi';
import { TimeframeReport } from '../application/timeframe-report.service.js';
import { ReportCacheInterceptor } from './report-cache.interceptor.js';
import { ApiAccountFilter, ReportScopes } from './report-scope.js';
import { timeframeView } from './report-views.js';
import { ApiTradeSelection } from './trades.openapi.js';

type QueryParameters = Record<string, unknown>;

/** ../shared/spec/interface.md "Trading data": totals over a date range or all time, by week and by month. */
@ApiTags('Trading data')
@ApiSignedIn()
@Controller('api')
@UseInterceptors(ReportCacheInterceptor)
export class TimeframeController {
  constructor(
    private readonly report: TimeframeReport,
    private readonly scopes: ReportScopes,
  ) {}

  /** `start`, `end` (YYYY-MM-DD), `all=true`, `symbols` (comma-separated). */
  @Get('timeframe-data')
  @ApiOperation({ summary: 'Totals over a date range or all time, by week and by month, and the open positions' })
  @ApiTradeSelection()
  @ApiAccountFilter()
  @ApiJson('TimeframeResponse', 'The totals.')
  @ApiFailures(400, 404)
  async timeframeData(@CurrentUser() user: AuthenticatedUser, @Query() query: QueryParameters) {
    return dataResponse(timeframeView(await this.report.timeframe(await this.scopes.of(user.id, query.account), query)));
  }

  /** The same operation with `start_date` and `end_date` (../shared/spec/decisions.md §4). */
  @Get('timeframe')
  @ApiOperation({ summary: 'As `/api/timeframe-data`, with `start_date` and `end_date`' })
  @ApiQuery({ name: 'start_date', required: false, schema: isoDate() })
  @ApiQuery({ name: 'end_date', required: false, schema: isoDate() })
  @ApiQuery({ name: 'all', required: false, schema: oneOfStrings(['true', 'false']) })
  @ApiQuery({ name: 'symbols', required: false, schema: string(), description: 'Comma-separated tickers.' })
  @ApiAccountFilter()
  @ApiJson('TimeframeResponse', 'The totals.')
  @ApiFailures(400, 404)
  async timeframe(@CurrentUser() user: AuthenticatedUser, @Query() query: QueryParameters) {
    const { start_date: start, end_date: end, all, symbols } = query;
    return dataResponse(timeframeView(await this.report.timeframe(await this.scopes.of(user.id, query.account), { start, end, all, symbols })));
  }
}
