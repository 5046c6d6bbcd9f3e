import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `trade_statistic_groups`: a user's trades summed by side, and by side with the close date, the holding
 * period, the symbol or the P&L bucket, with each group's largest and smallest P&L. The
 * all-time statistics (`/api/statistics?all=true`, with or without `side`) read these few thousand rows
 * instead of aggregating every trade; the import rebuilds a user's rows with the other rollups
 * (libs/trades report-rollups.ts). `key` is the close date, the period, the symbol, the bucket
 * number, or (grouping `side`) the side again.
 */
export class TradeStatisticGroups1763820000000 implements MigrationInterface {
  name = 'TradeStatisticGroups1763820000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE trade_statistic_groups (
        user_id               INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        grouping              TEXT NOT NULL CHECK (grouping IN ('day', 'side', 'period', 'symbol', 'bucket')),
        side                  TEXT NOT NULL,
        key                   TEXT NOT NULL,
        total_trades          INTEGER NOT NULL,
        winning_trades        INTEGER NOT NULL,
        losing_trades         INTEGER NOT NULL,
        gross_profit          NUMERIC NOT NULL,
        gross_loss            NUMERIC NOT NULL,
        winners_holding_days  BIGINT NOT NULL,
        losers_holding_days   BIGINT NOT NULL,
        max_pnl               NUMERIC NOT NULL,
        min_pnl               NUMERIC NOT NULL,
        PRIMARY KEY (user_id, grouping, side, key)
      )`);
    // What earlier imports stored (a frozen copy of libs/trades' refresh, for every user at once).
    await runner.query(`
      INSERT INTO trade_statistic_groups
      SELECT user_id,
             CASE WHEN GROUPING(day) = 0 THEN 'day' WHEN GROUPING(period) = 0 THEN 'period' WHEN GROUPING(symbol) = 0 THEN 'symbol'
                  WHEN GROUPING(bucket) = 0 THEN 'bucket' ELSE 'side' END,
             side, COALESCE(to_char(day, 'YYYY-MM-DD'), period, symbol, bucket::text, side),
             count(*), count(*) FILTER (WHERE profit_loss > 0), count(*) FILTER (WHERE profit_loss < 0),
             COALESCE(SUM(profit_loss) FILTER (WHERE profit_loss > 0), 0), COALESCE(SUM(profit_loss) FILTER (WHERE profit_loss < 0), 0),
             COALESCE(SUM(holding_days) FILTER (WHERE profit_loss > 0), 0), COALESCE(SUM(holding_days) FILTER (WHERE profit_loss < 0), 0),
             MAX(profit_loss), MIN(profit_loss)
        FROM (SELECT user_id, close_date AS day, side, symbol, profit_loss, holding_days,
                     width_bucket(profit_loss, '{-10000,-5000,-2500,-1000,-500,-250,-100,-50,0,50,100,250,500,1000,2500,5000,10000}'::numeric[]) AS bucket,
                     CASE WHEN holding_days <= 0 THEN 'same_day' WHEN holding_days <= 7 THEN '1_7' WHEN holding_days <= 30 THEN '8_30'
                          WHEN holding_days <= 365 THEN '31_365' ELSE 'over_365' END AS period
                FROM closed_trades) AS trades
       GROUP BY GROUPING SETS ((user_id, side), (user_id, side, day), (user_id, side, period), (user_id, side, symbol), (user_id, side, bucket))`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE trade_statistic_groups');
  }
}
