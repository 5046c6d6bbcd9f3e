import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An account's open lots by book (symbol and side) and open date: a day's upload reads of a book only
 * the lots its sales may take, its oldest and those of the dates its broker lots name
 * (`SqlTradeLedger.openLots`), in that order. Reading a book of 78,000 lots whole took 450 ms of such
 * an upload on the embedded engine.
 */
export class OpenLotsByBook1763990000000 implements MigrationInterface {
  name = 'OpenLotsByBook1763990000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE INDEX open_lots_book_idx ON open_lots (account_id, symbol, side, open_date, seq)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX open_lots_book_idx`);
  }
}
