import { Controller, Get, Query, UseInterceptors } from '@nestjs/common';
import { CurrentUser, dataResponse, type AuthenticatedUser } from '@app/shared';
import { StatisticsReport } from '../application/statistics-report.service.js';
import { ReportCacheInterceptor } from './report-cache.interceptor.js';
import { equityPointView, filtersView, statisticsView } from './statistics-views.js';

/** The trader's statistics and realized equity curve (docs/api.md "Statistics"), through the report cache. */
@Controller('api')
@UseInterceptors(ReportCacheInterceptor)
export class StatisticsController {
  constructor(private readonly report: StatisticsReport) {}

  @Get('statistics')
  async statistics(@CurrentUser() user: AuthenticatedUser, @Query() query: Record<string, unknown>) {
    const { filters, statistics } = await this.report.statistics(user.id, query);
    return dataResponse({ filters: filtersView(filters), statistics: statisticsView(statistics) });
  }

  @Get('equity-curve')
  async equityCurve(@CurrentUser() user: AuthenticatedUser, @Query() query: Record<string, unknown>) {
    const { filters, points } = await this.report.equityCurve(user.id, query);
    return dataResponse({ filters: filtersView(filters), points: points.map(equityPointView) });
  }
}
