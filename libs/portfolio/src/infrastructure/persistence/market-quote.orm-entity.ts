import { Column, Entity, PrimaryColumn } from 'typeorm';

/** `market_quotes`: the quote cache shared by every user and instance. */
@Entity('market_quotes')
export class MarketQuoteOrmEntity {
  @PrimaryColumn({ type: 'text' })
  symbol: string;

  @Column({ name: 'current_price', type: 'numeric', precision: 30, scale: 10, nullable: true })
  currentPrice: string | null;

  @Column({ type: 'numeric', precision: 30, scale: 10, nullable: true })
  change: string | null;

  @Column({ name: 'percent_change', type: 'numeric', precision: 30, scale: 10, nullable: true })
  percentChange: string | null;

  @Column({ type: 'numeric', precision: 30, scale: 10, nullable: true })
  high: string | null;

  @Column({ type: 'numeric', precision: 30, scale: 10, nullable: true })
  low: string | null;

  @Column({ type: 'numeric', precision: 30, scale: 10, nullable: true })
  open: string | null;

  @Column({ name: 'previous_close', type: 'numeric', precision: 30, scale: 10, nullable: true })
  previousClose: string | null;

  @Column({ name: 'quoted_at', type: 'timestamptz', nullable: true })
  quotedAt: Date | null;

  @Column({ name: 'fetched_at', type: 'timestamptz', nullable: true })
  fetchedAt: Date | null;

  @Column({ name: 'checked_at', type: 'timestamptz' })
  checkedAt: Date;

  @Column({ name: 'not_found', type: 'boolean', default: false })
  notFound: boolean;

  @Column({ name: 'company_name', type: 'text', nullable: true })
  companyName: string | null;
}
