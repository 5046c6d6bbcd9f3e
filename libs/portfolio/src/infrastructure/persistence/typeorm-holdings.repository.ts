import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { Database } from '@app/persistence';
import { Holdings } from '../../application/holdings.port.js';
import type { Holding, HoldingChanges, HoldingDraft } from '../../domain/holding.js';
import { DuplicateHoldingError } from '../../domain/portfolio.errors.js';
import { HoldingOrmEntity } from './holding.orm-entity.js';
import { toHolding } from './portfolio.mappers.js';

@Injectable()
export class TypeOrmHoldings extends Holdings {
  constructor(private readonly database: Database) {
    super();
  }

  private get rows() {
    return this.database.manager.getRepository(HoldingOrmEntity);
  }

  async findByUser(userId: number): Promise<Holding[]> {
    return (await this.rows.find({ where: { userId }, order: { symbol: 'ASC' } })).map(toHolding);
  }

  async findOne(userId: number, id: number): Promise<Holding | null> {
    const row = await this.rows.findOneBy({ userId, id });
    return row === null ? null : toHolding(row);
  }

  async findBySymbols(userId: number, symbols: readonly string[]): Promise<Holding[]> {
    if (symbols.length === 0) return [];
    return (await this.rows.find({ where: { userId, symbol: In([...symbols]) } })).map(toHolding);
  }

  async create(userId: number, draft: HoldingDraft): Promise<Holding> {
    const now = new Date();
    // ON CONFLICT DO NOTHING: a duplicate is an answer (409), not a failed statement in the logs.
    const result = await this.rows
      .createQueryBuilder()
      .insert()
      .values({
        userId,
        symbol: draft.symbol,
        holdingType: draft.holdingType,
        shares: draft.shares.toString(),
        averageCost: draft.averageCost.toString(),
        notes: draft.notes,
        purchaseDate: draft.purchaseDate,
        createdAt: now,
        updatedAt: now,
      })
      .orIgnore()
      .returning(['id'])
      .execute();
    const id = (result.raw as { id: number }[])[0]?.id;
    if (id === undefined) throw new DuplicateHoldingError(draft.symbol);
    return toHolding(await this.rows.findOneByOrFail({ id }));
  }

  async update(userId: number, id: number, changes: HoldingChanges): Promise<Holding | null> {
    const values: Partial<HoldingOrmEntity> = { updatedAt: new Date() };
    if (changes.holdingType !== undefined) values.holdingType = changes.holdingType;
    if (changes.shares !== undefined) values.shares = changes.shares.toString();
    if (changes.averageCost !== undefined) values.averageCost = changes.averageCost.toString();
    if (changes.notes !== undefined) values.notes = changes.notes;
    if (changes.purchaseDate !== undefined) values.purchaseDate = changes.purchaseDate;
    const result = await this.rows.update({ userId, id }, values);
    return result.affected ? this.findOne(userId, id) : null;
  }

  async delete(userId: number, id: number): Promise<boolean> {
    return Boolean((await this.rows.delete({ userId, id })).affected);
  }

  async allSymbols(): Promise<string[]> {
    const rows: { symbol: string }[] = await this.database.manager.query('SELECT DISTINCT symbol FROM portfolio_holdings ORDER BY symbol');
    return rows.map((row) => row.symbol);
  }

  async usersWithHoldings(): Promise<number[]> {
    const rows: { user_id: number }[] = await this.database.manager.query('SELECT DISTINCT user_id FROM portfolio_holdings ORDER BY user_id');
    return rows.map((row) => Number(row.user_id));
  }
}
