import { Controller, Get, Query, UseInterceptors } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, dataResponse, type AuthenticatedUser } from '@app/shared';
import { ApiFailures, ApiJson, ApiSignedIn } from '@app/shared/openapi';
import { StatisticsReport } from '../application/statistics-report.service.js';
import { ReportCacheInterceptor } from './report-cache.interceptor.js';
import { ApiAccountFilter, ReportScopes } from './report-scope.js';
import { equityPointView, filtersView, statisticsView } from './statistics-views.js';
import { ApiStatisticsFilters } from './trades.openapi.js';

/** The trader's statistics and realized equity curve (docs/api.md "Statistics"), through the report cache. */
@ApiTags('Statistics')
@ApiSignedIn()
@Controller('api')
@UseInterceptors(ReportCacheInterceptor)
export class StatisticsController {
  constructor(
    private readonly report: StatisticsReport,
    private readonly scopes: ReportScopes,
  ) {}

  @Get('statistics')
  @ApiOperation({ summary: 'Profit factor, expectancy, win and loss averages, day figures, drawdown and breakdowns (docs/api.md "Statistics")' })
  @ApiStatisticsFilters()
  @ApiAccountFilter()
  @ApiJson('StatisticsResponse', 'The statistics of the selected trades.')
  @ApiFailures(400, 404)
  async statistics(@CurrentUser() user: AuthenticatedUser, @Query() query: Record<string, unknown>) {
    const { filters, statistics } = await this.report.statistics(await this.scopes.of(user.id, query.account), query);
    return dataResponse({ filters: filtersView(filters), statistics: statisticsView(statistics) });
  }

  @Get('equity-curve')
  @ApiOperation({ summary: 'The realized equity curve, one point per day with a close or a dividend, with its drawdown' })
  @ApiStatisticsFilters()
  @ApiAccountFilter()
  @ApiJson('EquityCurveResponse', 'The curve.')
  @ApiFailures(400, 404)
  async equityCurve(@CurrentUser() user: AuthenticatedUser, @Query() query: Record<string, unknown>) {
    const { filters, points } = await this.report.equityCurve(await this.scopes.of(user.id, query.account), query);
    return dataResponse({ filters: filtersView(filters), points: points.map(equityPointView) });
  }
}
