import type { MigrationInterface, QueryRunner } from 'typeorm';

// The sums of a set of tag rows (a transition table), per user and tag, over the rows that count.
const SUMS = `count(*)::int AS total_trades, (count(*) FILTER (WHERE profit_loss > 0))::int AS winning_trades,
  (count(*) FILTER (WHERE profit_loss < 0))::int AS losing_trades,
  COALESCE(SUM(profit_loss) FILTER (WHERE profit_loss > 0), 0) AS gross_profit,
  COALESCE(SUM(profit_loss) FILTER (WHERE profit_loss < 0), 0) AS gross_loss`;

/** Adds (sign 1) or takes away (sign -1) the sums of `rows` from `tag_totals`. */
function apply(rows: string, sign: 1 | -1, insert: boolean): string {
  const op = sign === 1 ? '+' : '-';
  const set = `total_trades = t.total_trades ${op} s.total_trades, winning_trades = t.winning_trades ${op} s.winning_trades,
    losing_trades = t.losing_trades ${op} s.losing_trades, gross_profit = t.gross_profit ${op} s.gross_profit,
    gross_loss = t.gross_loss ${op} s.gross_loss`;
  return insert
    ? `INSERT INTO tag_totals AS t (user_id, tag_key, total_trades, winning_trades, losing_trades, gross_profit, gross_loss)
       SELECT user_id, tag_key, ${SUMS} FROM ${rows} GROUP BY user_id, tag_key
       ON CONFLICT (user_id, tag_key) DO UPDATE SET ${set.replaceAll('s.', 'EXCLUDED.')};`
    : `UPDATE tag_totals AS t SET ${set}
         FROM (SELECT user_id, tag_key, ${SUMS} FROM ${rows} GROUP BY user_id, tag_key) s
        WHERE t.user_id = s.user_id AND t.tag_key = s.tag_key;`;
}

/**
 * `/api/tags` sums each tag's trades. Joining every tag row to its trade took 717 ms on the embedded
 * engine for an account whose 100,000 trades were all tagged, and even one pass over the tag rows
 * ~100 ms; so the sums are kept as the rows change:
 * - `trade_tags.profit_loss`: the trade's P&L, fixed for a trade id (the id is a digest of the
 *   trade's cost basis and proceeds, among others).
 * - `trade_tags.orphaned`: the trade is gone (no import derives it any more, docs/api.md "Journal");
 *   the import keeps it up to date. An orphan's tags count for no tag.
 * - `tag_totals`: per user and tag, the count, winners, losers, gross profit and gross loss of the
 *   tag rows that count, kept by statement triggers on `trade_tags` (one aggregate per statement,
 *   however many rows it touched). A renamed tag's row follows its key (ON UPDATE CASCADE); the
 *   cascaded key change of its tag rows pairs no old row with a new one, so it changes no sum.
 * Existing rows are filled from the trades (or, for orphans, from what the journal recorded).
 */
export class TagFiguresWithoutJoins1763840000000 implements MigrationInterface {
  name = 'TagFiguresWithoutJoins1763840000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE trade_tags ADD COLUMN profit_loss NUMERIC, ADD COLUMN orphaned BOOLEAN NOT NULL DEFAULT false`);
    await runner.query(`
      UPDATE trade_tags t SET profit_loss = j.profit_loss,
             orphaned = NOT EXISTS (SELECT 1 FROM closed_trades c WHERE c.user_id = t.user_id AND c.trade_id = t.trade_id)
        FROM journal_trades j WHERE j.user_id = t.user_id AND j.trade_id = t.trade_id`);
    await runner.query(`ALTER TABLE trade_tags ALTER COLUMN profit_loss SET NOT NULL`);
    // Each import looks for orphans that came back: few rows, found without reading the others.
    await runner.query(`CREATE INDEX trade_tags_orphaned_idx ON trade_tags (user_id) WHERE orphaned`);

    await runner.query(`
      CREATE TABLE tag_totals (
        user_id         INTEGER NOT NULL,
        tag_key         TEXT NOT NULL,
        total_trades    INTEGER NOT NULL,
        winning_trades  INTEGER NOT NULL,
        losing_trades   INTEGER NOT NULL,
        gross_profit    NUMERIC NOT NULL,
        gross_loss      NUMERIC NOT NULL,
        PRIMARY KEY (user_id, tag_key),
        FOREIGN KEY (user_id, tag_key) REFERENCES journal_tags (user_id, tag_key) ON DELETE CASCADE ON UPDATE CASCADE
      )`);
    await runner.query(`INSERT INTO tag_totals SELECT user_id, tag_key, ${SUMS} FROM trade_tags WHERE NOT orphaned GROUP BY user_id, tag_key`);
    await runner.query(`
      CREATE FUNCTION tag_totals_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${apply('(SELECT * FROM added WHERE NOT orphaned) AS changed', 1, true)}
        RETURN NULL;
      END $$`);
    await runner.query(`
      CREATE FUNCTION tag_totals_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${apply('(SELECT * FROM gone WHERE NOT orphaned) AS changed', -1, false)}
        RETURN NULL;
      END $$`);
    // An update counts only where a row kept its key and changed whether it counts (orphaned).
    await runner.query(`
      CREATE FUNCTION tag_totals_update() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${apply('(SELECT n.* FROM new_rows n JOIN old_rows o USING (user_id, trade_id, tag_key) WHERE o.orphaned AND NOT n.orphaned) AS changed', 1, true)}
        ${apply('(SELECT o.* FROM old_rows o JOIN new_rows n USING (user_id, trade_id, tag_key) WHERE NOT o.orphaned AND n.orphaned) AS changed', -1, false)}
        RETURN NULL;
      END $$`);
    await runner.query(`CREATE TRIGGER trade_tags_totals_insert AFTER INSERT ON trade_tags REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION tag_totals_insert()`);
    await runner.query(`CREATE TRIGGER trade_tags_totals_delete AFTER DELETE ON trade_tags REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION tag_totals_delete()`);
    await runner.query(
      `CREATE TRIGGER trade_tags_totals_update AFTER UPDATE ON trade_tags REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION tag_totals_update()`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const event of ['insert', 'delete', 'update']) {
      await runner.query(`DROP TRIGGER trade_tags_totals_${event} ON trade_tags`);
      await runner.query(`DROP FUNCTION tag_totals_${event}()`);
    }
    await runner.query(`DROP TABLE tag_totals`);
    await runner.query(`DROP INDEX trade_tags_orphaned_idx`);
    await runner.query(`ALTER TABLE trade_tags DROP COLUMN profit_loss, DROP COLUMN orphaned`);
  }
}
