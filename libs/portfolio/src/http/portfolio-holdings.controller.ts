import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, dataResponse, ValidationError, type AuthenticatedUser } from '@app/shared';
import { ApiFailures, ApiJson, ApiSignedIn } from '@app/shared/openapi';
import { HoldingsService } from '../application/holdings.service.js';
import { ImportedPositions } from '../application/imported-positions.port.js';
import { Decimal } from '@app/shared/domain';
import type { HoldingChanges } from '../domain/holding.js';
import { HoldingNotFoundError } from '../domain/portfolio.errors.js';
import { portfolioTotals } from '../domain/portfolio-totals.js';
import { CreateHoldingDto, IdParams, UpdateHoldingDto } from './dto/holding.dto.js';
import { toHoldingResponse, toTotalsResponse } from './portfolio.presenter.js';

const MAX_ID = 2_147_483_647;

/** Holdings CRUD (../shared/spec/interface.md "Portfolio", ../shared/spec/decisions.md §5). Each user sees only their own holdings. */
@ApiTags('Portfolio')
@ApiSignedIn()
@Controller('api/portfolio/holdings')
export class PortfolioHoldingsController {
  constructor(
    private readonly holdings: HoldingsService,
    private readonly imported: ImportedPositions,
  ) {}

  @Get()
  @ApiOperation({ summary: "The user's holdings with their last prices, values and the portfolio's totals" })
  @ApiJson('HoldingsResponse', 'The holdings.')
  async list(@CurrentUser() user: AuthenticatedUser) {
    const [priced, importedSymbols] = await Promise.all([this.holdings.list(user.id), this.imported.symbols(user.id)]);
    const alsoImported = new Set(importedSymbols);
    const holdings = priced.map((holding) => ({ ...toHoldingResponse(holding), also_imported: alsoImported.has(holding.holding.symbol) }));
    const totals = toTotalsResponse(portfolioTotals(priced.map((holding) => holding.valuation)));
    return dataResponse({ holdings, count: holdings.length, stale_prices: holdings.filter((h) => h.price_stale).length, totals });
  }

  @Post()
  @ApiOperation({ summary: 'Add a holding' })
  @ApiJson('HoldingChangedResponse', 'Added.', 201)
  @ApiFailures(400, 409)
  @HttpCode(201)
  async create(@CurrentUser() user: AuthenticatedUser, @Body() body: CreateHoldingDto) {
    const holding = await this.holdings.create(user.id, {
      symbol: body.symbol,
      holdingType: body.holding_type,
      shares: Decimal.of(body.shares),
      averageCost: Decimal.of(body.average_cost),
      notes: body.notes ?? '',
      purchaseDate: body.purchase_date ?? null,
    });
    return { success: true, message: `Holding ${holding.holding.symbol} added`, holding: toHoldingResponse(holding) };
  }

  @Put(':id')
  @ApiOperation({ summary: 'Change a holding (every field optional, at least one)' })
  @ApiJson('HoldingChangedResponse', 'Changed.')
  @ApiFailures(400, 404)
  async update(@CurrentUser() user: AuthenticatedUser, @Param() params: IdParams, @Body() body: UpdateHoldingDto) {
    const changes: HoldingChanges = {
      ...(body.shares !== undefined && { shares: Decimal.of(body.shares) }),
      ...(body.average_cost !== undefined && { averageCost: Decimal.of(body.average_cost) }),
      ...(body.notes !== undefined && { notes: body.notes }),
      ...(body.holding_type !== undefined && { holdingType: body.holding_type }),
      ...(body.purchase_date !== undefined && { purchaseDate: body.purchase_date }),
    };
    if (Object.keys(changes).length === 0) {
      throw new ValidationError('Nothing to update: give shares, average_cost, notes, holding_type or purchase_date');
    }
    const holding = await this.holdings.update(user.id, holdingId(params), changes);
    return { success: true, message: `Holding ${holding.holding.symbol} updated`, holding: toHoldingResponse(holding) };
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a holding' })
  @ApiJson('MessageResponse', 'Deleted.')
  @ApiFailures(400, 404)
  async remove(@CurrentUser() user: AuthenticatedUser, @Param() params: IdParams) {
    const holding = await this.holdings.delete(user.id, holdingId(params));
    return { success: true, message: `Holding ${holding.symbol} deleted` };
  }
}

function holdingId(params: IdParams): number {
  const id = Number(params.id);
  if (id > MAX_ID) throw new HoldingNotFoundError();
  return id;
}
