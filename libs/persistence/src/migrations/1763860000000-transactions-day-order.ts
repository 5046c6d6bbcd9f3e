import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where a row sits in time within its day, for layouts that list a day oldest first (Interactive
 * Brokers): higher is earlier. Null for the layouts listed newest first, whose line gives the order.
 */
export class TransactionsDayOrder1763860000000 implements MigrationInterface {
  name = 'TransactionsDayOrder1763860000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE broker_transactions ADD COLUMN day_order INTEGER`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE broker_transactions DROP COLUMN day_order`);
  }
}
