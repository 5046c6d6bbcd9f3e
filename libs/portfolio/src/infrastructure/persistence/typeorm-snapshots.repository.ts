import { Injectable } from '@nestjs/common';
import { In, MoreThanOrEqual, type FindOptionsWhere } from 'typeorm';
import { Database } from '@app/persistence';
import { Snapshots, type SnapshotQuery } from '../../application/snapshots.port.js';
import type { Snapshot, SnapshotDraft } from '../../domain/snapshot.js';
import { PortfolioSnapshotOrmEntity } from './portfolio-snapshot.orm-entity.js';
import { toSnapshot } from './portfolio.mappers.js';

@Injectable()
export class TypeOrmSnapshots extends Snapshots {
  constructor(private readonly database: Database) {
    super();
  }

  private get rows() {
    return this.database.manager.getRepository(PortfolioSnapshotOrmEntity);
  }

  async create(draft: SnapshotDraft): Promise<Snapshot> {
    return toSnapshot(await this.rows.save(this.rows.create(columns(draft))));
  }

  async createEndOfDay(draft: SnapshotDraft & { tradingDate: string }): Promise<Snapshot | null> {
    const c = columns(draft);
    const inserted: { id: number }[] = await this.database.manager.query(
      `INSERT INTO portfolio_snapshots (user_id, snapshot_type, snapshot_time, trading_date, total_value, total_cost,
                                        total_gain_loss, total_return_pct, holdings_count, unpriced_count, notes)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (user_id, trading_date) WHERE trading_date IS NOT NULL DO NOTHING
       RETURNING id`,
      [c.userId, c.snapshotType, c.snapshotTime, c.tradingDate, c.totalValue, c.totalCost, c.totalGainLoss, c.totalReturnPct, c.holdingsCount, c.unpricedCount, c.notes],
    );
    if (inserted.length === 0) return null;
    const row = await this.rows.findOneByOrFail({ id: inserted[0].id });
    return toSnapshot(row);
  }

  async findByUser(userId: number, query: SnapshotQuery): Promise<Snapshot[]> {
    const where: FindOptionsWhere<PortfolioSnapshotOrmEntity> = { userId };
    if (query.since !== undefined) where.snapshotTime = MoreThanOrEqual(query.since);
    if (query.type !== undefined) where.snapshotType = query.type;
    const rows = await this.rows.find({ where, order: { snapshotTime: 'DESC', id: 'DESC' } });
    return rows.map(toSnapshot);
  }

  async delete(userId: number, id: number): Promise<Snapshot | null> {
    const row = await this.rows.findOneBy({ userId, id });
    if (row === null) return null;
    const result = await this.rows.delete({ userId, id });
    return result.affected ? toSnapshot(row) : null;
  }

  async usersWithoutEndOfDay(userIds: readonly number[], tradingDate: string): Promise<number[]> {
    if (userIds.length === 0) return [];
    const done = await this.rows.find({ select: { userId: true }, where: { userId: In([...userIds]), tradingDate } });
    const have = new Set(done.map((row) => row.userId));
    return userIds.filter((id) => !have.has(id));
  }
}

function columns(draft: SnapshotDraft): Omit<PortfolioSnapshotOrmEntity, 'id'> {
  return {
    userId: draft.userId,
    snapshotType: draft.type,
    snapshotTime: draft.takenAt,
    tradingDate: draft.tradingDate,
    totalValue: draft.totalValue.toFixed(2),
    totalCost: draft.totalCost.toFixed(2),
    totalGainLoss: draft.totalGainLoss.toFixed(2),
    totalReturnPct: draft.totalReturnPct.toFixed(2),
    holdingsCount: draft.holdingsCount,
    unpricedCount: draft.unpricedCount,
    notes: draft.notes,
  };
}
