import { Controller, Get, Param, Query, UseInterceptors } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentUser, dataResponse, type AuthenticatedUser } from '@app/shared';
import { ApiFailures, ApiJson, ApiSignedIn, isoMonth } from '@app/shared/openapi';
import { MonthlyReports } from '../application/monthly-reports.service.js';
import { ReportCacheInterceptor } from './report-cache.interceptor.js';
import { ApiAccountFilter, ReportScopes } from './report-scope.js';
import { monthsView, monthView, tradeDetailsView } from './report-views.js';

/** ../shared/spec/interface.md "Trading data": the months, a month, a month's trade details. */
@ApiTags('Trading data')
@ApiSignedIn()
@Controller('api')
@UseInterceptors(ReportCacheInterceptor)
export class MonthsController {
  constructor(
    private readonly reports: MonthlyReports,
    private readonly scopes: ReportScopes,
  ) {}

  @Get('months')
  @ApiOperation({ summary: 'Every month with trades or dividends, most recent first' })
  @ApiAccountFilter()
  @ApiJson('MonthsResponse', 'The months.')
  @ApiFailures(400, 404)
  async months(@CurrentUser() user: AuthenticatedUser, @Query('account') account?: unknown) {
    return dataResponse(monthsView(await this.reports.months(await this.scopes.of(user.id, account))));
  }

  @Get('month/:month')
  @ApiOperation({ summary: "A month's summary, trades and dividends" })
  @ApiParam({ name: 'month', schema: isoMonth() })
  @ApiAccountFilter()
  @ApiJson('MonthResponse', 'The month (empty lists for a month without activity).')
  @ApiFailures(400, 404)
  async month(@CurrentUser() user: AuthenticatedUser, @Param('month') month: string, @Query('account') account?: unknown) {
    return monthView(await this.reports.month(await this.scopes.of(user.id, account), month));
  }

  @Get('trade-details/:month')
  @ApiOperation({ summary: "A month's trades with every field" })
  @ApiParam({ name: 'month', schema: isoMonth() })
  @ApiAccountFilter()
  @ApiJson('TradeDetailsResponse', "The month's trades.")
  @ApiFailures(400, 404)
  async tradeDetails(@CurrentUser() user: AuthenticatedUser, @Param('month') month: string, @Query('account') account?: unknown) {
    return dataResponse(tradeDetailsView(await this.reports.tradeDetails(await this.scopes.of(user.id, account), month)));
  }
}
