import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, ValidationError, type AuthenticatedUser } from '@app/shared';
import { ApiFailures, ApiJson, ApiSignedIn } from '@app/shared/openapi';
import { HoldingsService } from '../application/holdings.service.js';
import { MarketPrices } from '../application/market-prices.service.js';
import { PortfolioSettings } from '../application/portfolio-settings.js';
import { MarketDataUnavailableError } from '../domain/portfolio.errors.js';
import { normalizeSymbol, SYMBOL_RULE } from '../domain/symbol.js';
import { toPriceData } from './portfolio.presenter.js';

/** Market prices (../shared/spec/interface.md "Portfolio", refresh-price results under "Errors"). */
@ApiTags('Portfolio')
@ApiSignedIn()
@Controller('api/portfolio')
export class PortfolioPricesController {
  constructor(
    private readonly prices: MarketPrices,
    private readonly holdings: HoldingsService,
    private readonly settings: PortfolioSettings,
  ) {}

  /**
   * Re-prices every holding of the user (quotes younger than a minute are reused). Per-symbol failures
   * are listed in `errors`; a missing or refused provider key fails the whole request.
   */
  @Post('refresh-prices')
  @ApiOperation({ summary: "Re-price every holding of the user; per-symbol failures are listed" })
  @ApiJson('RefreshPricesResponse', 'The outcome.')
  @ApiFailures(429, 502, 503)
  @HttpCode(200)
  async refresh(@CurrentUser() user: AuthenticatedUser) {
    const symbols = await this.holdings.symbolsOf(user.id);
    const outcomes = await this.prices.refresh(symbols, { maxAgeMs: this.settings.quoteReuseMs, urgency: 'interactive' });
    const failed = outcomes.filter((o) => o.status === 'failed');
    const rejected = failed.find((o) => o.cause instanceof MarketDataUnavailableError && o.cause.reason === 'rejected_key');
    if (rejected?.cause !== undefined) throw rejected.cause;
    const updated = outcomes.length - failed.length;
    const message =
      symbols.length === 0
        ? 'No holdings to refresh'
        : failed.length === 0
          ? `Updated prices for ${updated} holding${updated === 1 ? '' : 's'}`
          : `Updated prices for ${updated} of ${symbols.length} holdings`;
    return {
      success: true,
      updated_count: updated,
      errors: failed.map((o) => ({ symbol: o.symbol, error: o.status === 'failed' ? o.error : '' })),
      message,
    };
  }

  /** 200 with `valid:true|false`: the provider decides (../shared/spec/decisions.md §5). */
  @Get('validate-symbol/:symbol')
  @ApiOperation({ summary: 'Whether the market-data provider knows the symbol' })
  @ApiJson('SymbolValidation', '`valid` says; an unknown or malformed symbol is `valid: false` with `error`.')
  @ApiFailures(429, 502, 503)
  async validate(@Param('symbol') raw: string) {
    const symbol = normalizeSymbol(raw);
    if (symbol === undefined) return { valid: false, symbol: raw, error: `Invalid symbol format: must be ${SYMBOL_RULE}` };
    const result = await this.prices.validate(symbol);
    if (!result.valid) return { valid: false, symbol, error: `Symbol ${symbol} not found` };
    const price = result.quote.currentPrice.toNumber(4);
    return {
      valid: true,
      symbol,
      current_price: price,
      company_name: result.companyName,
      message: `${symbol}${result.companyName ? ` (${result.companyName})` : ''} is valid; current price ${price}`,
    };
  }

  /** The symbol's price data; updates the quote cache. */
  @Get('price/:symbol')
  @ApiOperation({ summary: "The symbol's price data; updates the price cache" })
  @ApiJson('PriceResponse', 'The price.')
  @ApiFailures(400, 404, 429, 502, 503)
  async price(@Param('symbol') raw: string) {
    const symbol = normalizeSymbol(raw);
    if (symbol === undefined) throw new ValidationError(`symbol must be ${SYMBOL_RULE}`);
    const quote = await this.prices.priceOf(symbol);
    return { success: true, symbol, price_data: toPriceData(quote) };
  }
}
