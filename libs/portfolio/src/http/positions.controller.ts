import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cachedReportBody } from '@app/trades';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, dataResponse, ValidationError, type AuthenticatedUser } from '@app/shared';
import { ApiFailures, ApiJson, ApiSignedIn } from '@app/shared/openapi';
import { PortfolioOverview } from '../application/portfolio-overview.service.js';
import { PositionsService } from '../application/positions.service.js';
import { PositionParams, PositionsQueryDto, ValueHistoryQueryDto } from './dto/positions.dto.js';
import { PositionsResponseCache } from './positions-response-cache.js';
import { toAllocationResponse, toLotResponse, toPositionsResponse, toSummaryResponse, toValueHistoryDay } from './positions.presenter.js';

/** The positions the imports leave open, and the portfolio as a whole (docs/api.md "Positions"). Per user. */
@ApiTags('Portfolio')
@ApiSignedIn()
@Controller('api')
export class PositionsController {
  constructor(
    private readonly positions: PositionsService,
    private readonly overview: PortfolioOverview,
    private readonly cache: PositionsResponseCache,
  ) {}

  @Get('positions')
  @ApiOperation({ summary: 'Open positions from the imports, priced; prices still being fetched are marked pending' })
  @ApiJson('PositionsResponse', 'The positions.')
  @ApiFailures(400)
  async list(
    @CurrentUser() user: AuthenticatedUser,
    @Query() query: PositionsQueryDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const report = await this.cache.response(user.id, request.url, async () => {
      const positions = await this.positions.list(user.id, { account: query.account });
      return { body: dataResponse(toPositionsResponse(positions)), freshForMs: positions.freshForMs };
    });
    return cachedReportBody(request, reply, report);
  }

  @Get('positions/:symbol')
  @ApiOperation({ summary: 'One open position with its lots' })
  @ApiJson('PositionDetailResponse', 'The position(s) in the symbol (long and short when both are open) and their lots.')
  @ApiFailures(400, 404)
  async detail(@CurrentUser() user: AuthenticatedUser, @Param() params: PositionParams) {
    const { report, lots } = await this.positions.detail(user.id, params.symbol);
    return dataResponse({ symbol: params.symbol, ...toPositionsResponse(report), lots: lots.map(toLotResponse) });
  }

  @Get('portfolio/summary')
  @ApiOperation({ summary: 'Totals of the manual holdings and the imported positions, together and apart' })
  @ApiJson('PortfolioSummaryResponse', 'The totals.')
  async summary(@CurrentUser() user: AuthenticatedUser) {
    return dataResponse(toSummaryResponse(await this.overview.summary(user.id)));
  }

  @Get('portfolio/allocation')
  @ApiOperation({ summary: 'Market value by symbol and by security type' })
  @ApiJson('AllocationResponse', 'The allocation.')
  async allocation(@CurrentUser() user: AuthenticatedUser) {
    return dataResponse(toAllocationResponse(await this.overview.allocation(user.id)));
  }

  @Get('portfolio/value-history')
  @ApiOperation({ summary: "The portfolio's value per day from the end-of-day snapshots, with realized P&L and dividends" })
  @ApiJson('ValueHistoryResponse', 'One row per day with a snapshot or realized activity, oldest first.')
  @ApiFailures(400)
  async valueHistory(@CurrentUser() user: AuthenticatedUser, @Query() query: ValueHistoryQueryDto) {
    const from = query.start_date ?? null;
    const to = query.end_date ?? null;
    if (from !== null && to !== null && from > to) throw new ValidationError('start_date must not be after end_date');
    const days = await this.overview.valueHistory(user.id, from, to);
    return dataResponse({ start_date: from, end_date: to, days: days.map(toValueHistoryDay) });
  }
}
