import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables with a `symbol`, a `trade_id` or a `close_fill` column, and which of them each has. */
const COLUMNS: Record<string, readonly string[]> = {
  broker_transactions: ['symbol'],
  realized_lots: ['symbol'],
  closed_trades: ['symbol', 'trade_id', 'close_fill'],
  dividends: ['symbol'],
  position_history: ['symbol'],
  open_lots: ['symbol'],
  securities: ['symbol'],
  daily_symbol_totals: ['symbol'],
  symbol_totals: ['symbol'],
  journal_trades: ['symbol', 'trade_id', 'close_fill'],
  trade_notes: ['trade_id'],
  trade_tags: ['trade_id'],
  market_quotes: ['symbol'],
  portfolio_holdings: ['symbol'],
};

/**
 * Tickers and trade ids compare byte by byte (`COLLATE "C"`), whatever the database's locale: they are
 * codes, not words, and a locale's rules (`en_US`: punctuation ignored at first, `C.UTF-8`: code points
 * through the C library's collation) cost time at every index insert and sort while adding nothing:
 * 67,000 trades went into a table with only the `(user_id, trade_id)` index of random hexadecimal ids in
 * ~200 ms instead of ~380 ms under `C.UTF-8` (docs/operations.md "Database"). The embedded database was
 * made with the C locale already: both now order symbols alike. Every such column changes at once, so
 * that no join or union compares a byte-ordered column with one in the database's collation. Only the
 * indexes on them are built again; the rows are not rewritten.
 */
export class SymbolsAndTradeIdsInByteOrder1763890000000 implements MigrationInterface {
  name = 'SymbolsAndTradeIdsInByteOrder1763890000000';

  async up(runner: QueryRunner): Promise<void> {
    await setCollation(runner, '"C"');
  }

  async down(runner: QueryRunner): Promise<void> {
    await setCollation(runner, '"default"');
  }
}

async function setCollation(runner: QueryRunner, collation: string): Promise<void> {
  for (const [table, columns] of Object.entries(COLUMNS)) {
    await runner.query(`ALTER TABLE ${table} ${columns.map((column) => `ALTER COLUMN ${column} TYPE text COLLATE ${collation}`).join(', ')}`);
  }
}
