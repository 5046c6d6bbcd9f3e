import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** `portfolio_holdings` (migration 1763750000000). NUMERIC columns travel as strings, read exactly. */
@Entity('portfolio_holdings')
export class HoldingOrmEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ type: 'text' })
  symbol: string;

  @Column({ name: 'holding_type', type: 'text' })
  holdingType: string;

  @Column({ type: 'numeric', precision: 30, scale: 10 })
  shares: string;

  @Column({ name: 'average_cost', type: 'numeric', precision: 30, scale: 10 })
  averageCost: string;

  @Column({ type: 'text', default: '' })
  notes: string;

  @Column({ name: 'purchase_date', type: 'date', nullable: true })
  purchaseDate: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
