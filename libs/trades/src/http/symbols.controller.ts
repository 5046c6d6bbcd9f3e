import { Controller, Get, Param, Query, UseInterceptors } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentUser, dataResponse, type AuthenticatedUser } from '@app/shared';
import { ApiFailures, ApiJson, ApiSignedIn, string } from '@app/shared/openapi';
import { TradeJournal } from '../application/trade-journal.port.js';
import { SymbolReports } from '../application/symbol-reports.service.js';
import { ReportCacheInterceptor } from './report-cache.interceptor.js';
import { ApiAccountFilter, ReportScopes } from './report-scope.js';
import { idsOf, symbolDetailView, symbolSummariesView, symbolsView } from './report-views.js';

/** ../shared/spec/interface.md "Symbols". The segment `summary` is the summary list, never a symbol (static routes win). */
@ApiTags('Symbols')
@ApiSignedIn()
@Controller('api/symbols')
@UseInterceptors(ReportCacheInterceptor)
export class SymbolsController {
  constructor(
    private readonly reports: SymbolReports,
    private readonly journal: TradeJournal,
    private readonly scopes: ReportScopes,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The symbols traded or paid dividends, with company names' })
  @ApiAccountFilter()
  @ApiJson('SymbolsResponse', 'The symbols.')
  @ApiFailures(400, 404)
  async symbols(@CurrentUser() user: AuthenticatedUser, @Query('account') account?: unknown) {
    return dataResponse(symbolsView(await this.reports.summaries(await this.scopes.of(user.id, account))));
  }

  @Get('summary')
  @ApiOperation({ summary: "Each symbol's totals" })
  @ApiAccountFilter()
  @ApiJson('SymbolSummariesResponse', 'One item per symbol.')
  @ApiFailures(400, 404)
  async summary(@CurrentUser() user: AuthenticatedUser, @Query('account') account?: unknown) {
    return dataResponse(symbolSummariesView(await this.reports.summaries(await this.scopes.of(user.id, account))));
  }

  /** Any case (`nvda`); 404 `Symbol not found` when the user has no trade, dividend or shares of it. */
  @Get(':symbol')
  @ApiOperation({ summary: "One symbol's summary, trades and dividends" })
  @ApiParam({ name: 'symbol', schema: string({ maxLength: 20 }), description: 'Any case.' })
  @ApiAccountFilter()
  @ApiJson('SymbolDetailResponse', 'The symbol.')
  @ApiFailures(400, 404)
  async symbol(@CurrentUser() user: AuthenticatedUser, @Param('symbol') symbol: string, @Query('account') account?: unknown) {
    const detail = await this.reports.detail(await this.scopes.of(user.id, account), symbol);
    return dataResponse(symbolDetailView(detail, await this.journal.annotations(user.id, idsOf(detail.trades))));
  }
}
