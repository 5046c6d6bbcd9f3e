import { Injectable } from '@nestjs/common';
import { Database } from '@app/persistence';
import { Decimal, type IsoDate } from '@app/shared/domain';
import { ImportedPositions, type RealizedDay } from '../../application/imported-positions.port.js';
import type { ImportedLot } from '../../domain/position.js';

/** The imports' open lots (`open_lots`) and realized days (`closed_trades`, `dividends`), read-only. */
@Injectable()
export class SqlImportedPositions extends ImportedPositions {
  constructor(private readonly database: Database) {
    super();
  }

  async lots(userId: number, filter: { account?: string; symbol?: string } = {}): Promise<ImportedLot[]> {
    const params: unknown[] = [userId];
    const conditions = ['l.user_id = $1'];
    if (filter.account !== undefined) conditions.push(`a.account_number = $${params.push(filter.account)}`);
    if (filter.symbol !== undefined) conditions.push(`l.symbol = $${params.push(filter.symbol)}`);
    const rows: LotRow[] = await this.database.manager.query(
      `SELECT a.account_number, l.symbol, l.side, to_char(l.open_date, 'YYYY-MM-DD') AS open_date, l.shares::text AS shares,
              l.cost::text AS cost, l.price::text AS price, l.source
         FROM open_lots l JOIN brokerage_accounts a ON a.id = l.account_id
        WHERE ${conditions.join(' AND ')}
        ORDER BY l.symbol, l.open_date, l.account_id, l.seq`,
      params,
    );
    return rows.map((row) => ({
      accountNumber: row.account_number,
      symbol: row.symbol,
      side: row.side,
      openDate: row.open_date,
      shares: Decimal.parse(row.shares),
      cost: Decimal.parse(row.cost),
      price: row.price === null ? null : Decimal.parse(row.price),
      source: row.source,
    }));
  }

  async symbols(userId: number): Promise<string[]> {
    const rows: { symbol: string }[] = await this.database.manager.query(`SELECT DISTINCT symbol FROM open_lots WHERE user_id = $1 ORDER BY symbol`, [userId]);
    return rows.map((row) => row.symbol);
  }

  async usersWithLots(): Promise<number[]> {
    // One index probe per user (open_lots_user_idx), not a pass over every open lot: the end-of-day job
    // asks this each minute, and a heavy account holds tens of thousands of lots.
    const rows: { id: number }[] = await this.database.manager.query(
      `SELECT id FROM users WHERE EXISTS (SELECT 1 FROM open_lots WHERE open_lots.user_id = users.id) ORDER BY id`,
    );
    return rows.map((row) => Number(row.id));
  }

  async allSymbols(): Promise<string[]> {
    const rows: { symbol: string }[] = await this.database.manager.query(`SELECT DISTINCT symbol FROM open_lots ORDER BY symbol`);
    return rows.map((row) => row.symbol);
  }

  async realizedDays(userId: number, from: IsoDate | null, to: IsoDate | null): Promise<RealizedDay[]> {
    const rows: { day: string; realized: string; dividends: string }[] = await this.database.manager.query(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, SUM(realized)::text AS realized, SUM(dividends)::text AS dividends
         FROM (SELECT close_date AS day, profit_loss AS realized, 0 AS dividends FROM closed_trades
                WHERE user_id = $1 AND ($2::date IS NULL OR close_date >= $2) AND ($3::date IS NULL OR close_date <= $3)
               UNION ALL
               SELECT transaction_date, 0, amount FROM dividends
                WHERE user_id = $1 AND ($2::date IS NULL OR transaction_date >= $2) AND ($3::date IS NULL OR transaction_date <= $3)) AS activity
        GROUP BY day ORDER BY day`,
      [userId, from, to],
    );
    return rows.map((row) => ({ date: row.day, realizedProfitLoss: Decimal.parse(row.realized), dividends: Decimal.parse(row.dividends) }));
  }
}

interface LotRow {
  account_number: string;
  symbol: string;
  side: 'long' | 'short';
  open_date: string;
  shares: string;
  cost: string;
  price: string | null;
  source: 'broker' | 'fifo';
}
