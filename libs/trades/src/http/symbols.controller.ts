import { Controller, Get, Param, UseInterceptors } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiFailures, ApiJson, ApiSignedIn, CurrentUser, dataResponse, string, type AuthenticatedUser } from '@app/shared';
import { TradeJournal } from '../application/trade-journal.port.js';
import { SymbolReports } from '../application/symbol-reports.service.js';
import { ReportCacheInterceptor } from './report-cache.interceptor.js';
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
  ) {}

  @Get()
  @ApiOperation({ summary: 'The symbols traded or paid dividends, with company names' })
  @ApiJson('SymbolsResponse', 'The symbols.')
  async symbols(@CurrentUser() user: AuthenticatedUser) {
    return dataResponse(symbolsView(await this.reports.summaries(user.id)));
  }

  @Get('summary')
  @ApiOperation({ summary: "Each symbol's totals" })
  @ApiJson('SymbolSummariesResponse', 'One item per symbol.')
  async summary(@CurrentUser() user: AuthenticatedUser) {
    return dataResponse(symbolSummariesView(await this.reports.summaries(user.id)));
  }

  /** Any case (`nvda`); 404 `Symbol not found` when the user has no trade, dividend or shares of it. */
  @Get(':symbol')
  @ApiOperation({ summary: "One symbol's summary, trades and dividends" })
  @ApiParam({ name: 'symbol', schema: string({ maxLength: 20 }), description: 'Any case.' })
  @ApiJson('SymbolDetailResponse', 'The symbol.')
  @ApiFailures(400, 404)
  async symbol(@CurrentUser() user: AuthenticatedUser, @Param('symbol') symbol: string) {
    const detail = await this.reports.detail(user.id, symbol);
    return dataResponse(symbolDetailView(detail, await this.journal.annotations(user.id, idsOf(detail.trades))));
  }
}
