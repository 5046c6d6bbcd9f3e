import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { Database, textOrNull } from '@app/persistence';
import { QuoteCache } from '../../application/quote-cache.port.js';
import type { Quote, SymbolPrice } from '../../domain/quote.js';
import { MarketQuoteOrmEntity } from './market-quote.orm-entity.js';
import { toSymbolPrice } from './portfolio.mappers.js';

/** The quote cache in `market_quotes`. A write never replaces a newer answer (instances race harmlessly). */
@Injectable()
export class TypeOrmQuoteCache extends QuoteCache {
  constructor(private readonly database: Database) {
    super();
  }

  async findBySymbols(symbols: readonly string[]): Promise<Map<string, SymbolPrice>> {
    if (symbols.length === 0) return new Map();
    const rows = await this.database.manager.getRepository(MarketQuoteOrmEntity).find({ where: { symbol: In([...symbols]) } });
    return new Map(rows.map((row) => [row.symbol, toSymbolPrice(row)]));
  }

  async saveQuote(quote: Quote, fetchedAt: Date): Promise<void> {
    await this.database.manager.query(
      `INSERT INTO market_quotes AS q (symbol, current_price, change, percent_change, high, low, open, previous_close,
                                       quoted_at, fetched_at, checked_at, not_found)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, false)
       ON CONFLICT (symbol) DO UPDATE SET
         current_price = EXCLUDED.current_price, change = EXCLUDED.change, percent_change = EXCLUDED.percent_change,
         high = EXCLUDED.high, low = EXCLUDED.low, open = EXCLUDED.open, previous_close = EXCLUDED.previous_close,
         quoted_at = EXCLUDED.quoted_at, fetched_at = EXCLUDED.fetched_at, checked_at = EXCLUDED.checked_at, not_found = false
       WHERE q.checked_at <= EXCLUDED.checked_at`,
      [
        quote.symbol,
        quote.currentPrice.toString(),
        textOrNull(quote.change),
        textOrNull(quote.percentChange),
        textOrNull(quote.high),
        textOrNull(quote.low),
        textOrNull(quote.open),
        textOrNull(quote.previousClose),
        quote.quotedAt,
        fetchedAt,
      ],
    );
  }

  async markNotFound(symbol: string, checkedAt: Date): Promise<void> {
    await this.database.manager.query(
      `INSERT INTO market_quotes AS q (symbol, checked_at, not_found) VALUES ($1, $2, true)
       ON CONFLICT (symbol) DO UPDATE SET checked_at = EXCLUDED.checked_at, not_found = true
       WHERE q.checked_at <= EXCLUDED.checked_at`,
      [symbol, checkedAt],
    );
  }

  async saveCompanyName(symbol: string, name: string): Promise<void> {
    await this.database.manager.query('UPDATE market_quotes SET company_name = $2 WHERE symbol = $1', [symbol, name]);
  }
}
