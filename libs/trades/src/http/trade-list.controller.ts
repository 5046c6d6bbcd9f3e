import { Controller, Get, Query, UseInterceptors } from '@nestjs/common';
import { CurrentUser, dataResponse, type AuthenticatedUser } from '@app/shared';
import { TradeList } from '../application/trade-list.service.js';
import { ReportCacheInterceptor } from './report-cache.interceptor.js';
import { tradeListView } from './report-views.js';

/** Every completed trade of the user, filtered, sorted and paged (docs/api.md "Trade list"), through the report cache. */
@Controller('api')
@UseInterceptors(ReportCacheInterceptor)
export class TradeListController {
  constructor(private readonly list: TradeList) {}

  @Get('trades')
  async trades(@CurrentUser() user: AuthenticatedUser, @Query() query: Record<string, unknown>) {
    return dataResponse(tradeListView(await this.list.page(user.id, query)));
  }
}
