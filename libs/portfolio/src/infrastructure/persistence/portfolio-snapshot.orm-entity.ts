import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** `portfolio_snapshots`; `trading_date` is set on automatic end-of-day snapshots only (unique per user). */
@Entity('portfolio_snapshots')
export class PortfolioSnapshotOrmEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'snapshot_type', type: 'text' })
  snapshotType: string;

  @Column({ name: 'snapshot_time', type: 'timestamptz' })
  snapshotTime: Date;

  @Column({ name: 'trading_date', type: 'date', nullable: true })
  tradingDate: string | null;

  @Column({ name: 'total_value', type: 'numeric', precision: 24, scale: 2 })
  totalValue: string;

  @Column({ name: 'total_cost', type: 'numeric', precision: 24, scale: 2 })
  totalCost: string;

  @Column({ name: 'total_gain_loss', type: 'numeric', precision: 24, scale: 2 })
  totalGainLoss: string;

  @Column({ name: 'total_return_pct', type: 'numeric', precision: 16, scale: 2 })
  totalReturnPct: string;

  @Column({ name: 'holdings_count', type: 'integer' })
  holdingsCount: number;

  @Column({ name: 'unpriced_count', type: 'integer', default: 0 })
  unpricedCount: number;

  @Column({ type: 'text', default: '' })
  notes: string;
}
