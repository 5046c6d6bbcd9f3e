import { Controller, Get, Query, UseInterceptors } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, dataResponse, type AuthenticatedUser } from '@app/shared';
import { ApiFailures, ApiJson, ApiSignedIn } from '@app/shared/openapi';
import { TradeJournal } from '../application/trade-journal.port.js';
import { TradeList } from '../application/trade-list.service.js';
import { ReportCacheInterceptor } from './report-cache.interceptor.js';
import { ApiAccountFilter, ReportScopes } from './report-scope.js';
import { tradeListView } from './report-views.js';
import { ApiTradeListParameters } from './trades.openapi.js';

/** Every completed trade of the user, filtered, sorted and paged (docs/api.md "Trade list"), through the report cache. */
@ApiTags('Statistics')
@ApiSignedIn()
@Controller('api')
@UseInterceptors(ReportCacheInterceptor)
export class TradeListController {
  constructor(
    private readonly list: TradeList,
    private readonly journal: TradeJournal,
    private readonly scopes: ReportScopes,
  ) {}

  @Get('trades')
  @ApiOperation({ summary: 'Every completed trade, filtered, sorted and paged (docs/api.md "Trade list")' })
  @ApiTradeListParameters()
  @ApiAccountFilter()
  @ApiJson('TradeListResponse', 'A page of trades and the totals of everything selected.')
  @ApiFailures(400, 404)
  async trades(@CurrentUser() user: AuthenticatedUser, @Query() query: Record<string, unknown>) {
    const result = await this.list.page(await this.scopes.of(user.id, query.account), query);
    const annotations = await this.journal.annotations(
      user.id,
      result.page.trades.map((listed) => listed.id),
    );
    return dataResponse(tradeListView(result, annotations));
  }
}
