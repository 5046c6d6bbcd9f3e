import { Controller, Get, Param, UseInterceptors } from '@nestjs/common';
import { CurrentUser, dataResponse, type AuthenticatedUser } from '@app/shared';
import { SymbolReports } from '../application/symbol-reports.service.js';
import { ReportCacheInterceptor } from './report-cache.interceptor.js';
import { symbolDetailView, symbolSummariesView, symbolsView } from './report-views.js';

/** ../shared/spec/interface.md "Symbols". The segment `summary` is the summary list, never a symbol (static routes win). */
@Controller('api/symbols')
@UseInterceptors(ReportCacheInterceptor)
export class SymbolsController {
  constructor(private readonly reports: SymbolReports) {}

  @Get()
  async symbols(@CurrentUser() user: AuthenticatedUser) {
    return dataResponse(symbolsView(await this.reports.summaries(user.id)));
  }

  @Get('summary')
  async summary(@CurrentUser() user: AuthenticatedUser) {
    return dataResponse(symbolSummariesView(await this.reports.summaries(user.id)));
  }

  /** Any case (`nvda`); 404 `Symbol not found` when the user has no trade, dividend or shares of it. */
  @Get(':symbol')
  async symbol(@CurrentUser() user: AuthenticatedUser, @Param('symbol') symbol: string) {
    return dataResponse(symbolDetailView(await this.reports.detail(user.id, symbol)));
  }
}
