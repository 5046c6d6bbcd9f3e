import { Controller, Get, Param, UseInterceptors } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiFailures, ApiJson, ApiSignedIn, CurrentUser, dataResponse, isoMonth, type AuthenticatedUser } from '@app/shared';
import { MonthlyReports } from '../application/monthly-reports.service.js';
import { ReportCacheInterceptor } from './report-cache.interceptor.js';
import { monthsView, monthView, tradeDetailsView } from './report-views.js';

/** ../shared/spec/interface.md "Trading data": the months, a month, a month's trade details. */
@ApiTags('Trading data')
@ApiSignedIn()
@Controller('api')
@UseInterceptors(ReportCacheInterceptor)
export class MonthsController {
  constructor(private readonly reports: MonthlyReports) {}

  @Get('months')
  @ApiOperation({ summary: 'Every month with trades or dividends, most recent first' })
  @ApiJson('MonthsResponse', 'The months.')
  async months(@CurrentUser() user: AuthenticatedUser) {
    return dataResponse(monthsView(await this.reports.months(user.id)));
  }

  @Get('month/:month')
  @ApiOperation({ summary: "A month's summary, trades and dividends" })
  @ApiParam({ name: 'month', schema: isoMonth() })
  @ApiJson('MonthResponse', 'The month (empty lists for a month without activity).')
  @ApiFailures(400)
  async month(@CurrentUser() user: AuthenticatedUser, @Param('month') month: string) {
    return dataResponse(monthView(await this.reports.month(user.id, month)));
  }

  @Get('trade-details/:month')
  @ApiOperation({ summary: "A month's trades with every field" })
  @ApiParam({ name: 'month', schema: isoMonth() })
  @ApiJson('TradeDetailsResponse', "The month's trades.")
  @ApiFailures(400)
  async tradeDetails(@CurrentUser() user: AuthenticatedUser, @Param('month') month: string) {
    return dataResponse(tradeDetailsView(await this.reports.tradeDetails(user.id, month)));
  }
}
