import { Controller, Get, Param, UseInterceptors } from '@nestjs/common';
import { CurrentUser, dataResponse, type AuthenticatedUser } from '@app/shared';
import { MonthlyReports } from '../application/monthly-reports.service.js';
import { ReportCacheInterceptor } from './report-cache.interceptor.js';
import { monthsView, monthView, tradeDetailsView } from './report-views.js';

/** ../shared/spec/interface.md "Trading data": the months, a month, a month's trade details. */
@Controller('api')
@UseInterceptors(ReportCacheInterceptor)
export class MonthsController {
  constructor(private readonly reports: MonthlyReports) {}

  @Get('months')
  async months(@CurrentUser() user: AuthenticatedUser) {
    return dataResponse(monthsView(await this.reports.months(user.id)));
  }

  @Get('month/:month')
  async month(@CurrentUser() user: AuthenticatedUser, @Param('month') month: string) {
    return dataResponse(monthView(await this.reports.month(user.id, month)));
  }

  @Get('trade-details/:month')
  async tradeDetails(@CurrentUser() user: AuthenticatedUser, @Param('month') month: string) {
    return dataResponse(tradeDetailsView(await this.reports.tradeDetails(user.id, month)));
  }
}
