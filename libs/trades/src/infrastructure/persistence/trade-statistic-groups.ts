import { decimalFrom, type SqlRow } from '@app/persistence/sql';
import type { Decimal } from '@app/shared/domain';
import { PROFIT_LOSS_EDGES, type TradeGroup, type TradeGrouping } from '../../domain/trade-statistics.js';

/**
 * The statistics' groups in SQL, shared by the all-time rollup (`trade_statistic_groups`, rebuilt by
 * every import) and the scan of a filtered selection: both sum the same columns the same way and
 * answer rows of the same shape (`GROUP_COLUMNS`).
 */

/** The selected trades with what they are grouped by; the holding periods are holdingPeriodOf's, the buckets profitLossBucketOf's. */
export function groupedTradesSql(where: string): string {
  return `(SELECT close_date AS day, side, symbol, profit_loss, holding_days,
                  width_bucket(profit_loss, '{${PROFIT_LOSS_EDGES.join(',')}}'::numeric[]) AS bucket,
                  CASE WHEN holding_days <= 0 THEN 'same_day' WHEN holding_days <= 7 THEN '1_7' WHEN holding_days <= 30 THEN '8_30'
                       WHEN holding_days <= 365 THEN '31_365' ELSE 'over_365' END AS period
             FROM closed_trades WHERE ${where}) AS trades`;
}

/**
 * Over `groupedTradesSql`, grouped by grouping sets of (at most) the side and one of day, period, symbol
 * and bucket: which grouping a row is, its key, its totals, its largest and smallest P&L.
 */
export const GROUP_AGGREGATES = `
  CASE WHEN GROUPING(day) = 0 THEN 'day' WHEN GROUPING(period) = 0 THEN 'period' WHEN GROUPING(symbol) = 0 THEN 'symbol'
       WHEN GROUPING(bucket) = 0 THEN 'bucket' ELSE 'side' END AS grouping,
  COALESCE(to_char(day, 'YYYY-MM-DD'), period, symbol, bucket::text, side) AS key,
  count(*) AS total_trades, count(*) FILTER (WHERE profit_loss > 0) AS winning_trades, count(*) FILTER (WHERE profit_loss < 0) AS losing_trades,
  COALESCE(SUM(profit_loss) FILTER (WHERE profit_loss > 0), 0) AS gross_profit, COALESCE(SUM(profit_loss) FILTER (WHERE profit_loss < 0), 0) AS gross_loss,
  COALESCE(SUM(holding_days) FILTER (WHERE profit_loss > 0), 0) AS winners_holding_days,
  COALESCE(SUM(holding_days) FILTER (WHERE profit_loss < 0), 0) AS losers_holding_days,
  MAX(profit_loss) AS max_pnl, MIN(profit_loss) AS min_pnl`;

/** The columns a reader selects from `GROUP_AGGREGATES`' rows (or the rollup's), as exact text. */
export const GROUP_COLUMNS = `grouping, key, total_trades::int AS total_trades, winning_trades::int AS winning_trades,
  losing_trades::int AS losing_trades, gross_profit::text AS gross_profit, gross_loss::text AS gross_loss,
  winners_holding_days::text AS winners_holding_days, losers_holding_days::text AS losers_holding_days,
  max_pnl::text AS max_pnl, min_pnl::text AS min_pnl`;

/** Rebuilds a user's all-time statistic groups ($1: the user), by side and by side with each other grouping. */
export const REFRESH_STATISTIC_GROUPS = [
  `DELETE FROM trade_statistic_groups WHERE user_id = $1`,
  `INSERT INTO trade_statistic_groups (user_id, grouping, key, side, total_trades, winning_trades, losing_trades, gross_profit, gross_loss,
                                       winners_holding_days, losers_holding_days, max_pnl, min_pnl)
   SELECT $1, grouping, key, side, total_trades, winning_trades, losing_trades, gross_profit, gross_loss,
          winners_holding_days, losers_holding_days, max_pnl, min_pnl
     FROM (SELECT side, ${GROUP_AGGREGATES} FROM ${groupedTradesSql('user_id = $1')}
            GROUP BY GROUPING SETS ((side), (side, day), (side, period), (side, symbol), (side, bucket))) AS groups`,
];

/**
 * Adds to a user's statistic groups ($1) the trades one account ($2) gained after a day ($3): counts
 * and sums add, the extremes take the larger and the smaller (the same rows a rebuild gives).
 */
export const ADD_STATISTIC_GROUPS = [
  `INSERT INTO trade_statistic_groups AS g (user_id, grouping, key, side, total_trades, winning_trades, losing_trades, gross_profit, gross_loss,
                                            winners_holding_days, losers_holding_days, max_pnl, min_pnl)
   SELECT $1, grouping, key, side, total_trades, winning_trades, losing_trades, gross_profit, gross_loss,
          winners_holding_days, losers_holding_days, max_pnl, min_pnl
     FROM (SELECT side, ${GROUP_AGGREGATES} FROM ${groupedTradesSql('user_id = $1 AND account_id = $2 AND close_date > $3')}
            GROUP BY GROUPING SETS ((side), (side, day), (side, period), (side, symbol), (side, bucket))) AS groups
   ON CONFLICT (user_id, grouping, side, key) DO UPDATE SET
     total_trades = g.total_trades + EXCLUDED.total_trades, winning_trades = g.winning_trades + EXCLUDED.winning_trades,
     losing_trades = g.losing_trades + EXCLUDED.losing_trades, gross_profit = g.gross_profit + EXCLUDED.gross_profit,
     gross_loss = g.gross_loss + EXCLUDED.gross_loss, winners_holding_days = g.winners_holding_days + EXCLUDED.winners_holding_days,
     losers_holding_days = g.losers_holding_days + EXCLUDED.losers_holding_days,
     max_pnl = GREATEST(g.max_pnl, EXCLUDED.max_pnl), min_pnl = LEAST(g.min_pnl, EXCLUDED.min_pnl)`,
];

export interface StatisticGroupRow extends TradeGroup {
  readonly maxProfitLoss: Decimal;
  readonly minProfitLoss: Decimal;
}

export function statisticGroupOf(row: SqlRow): StatisticGroupRow {
  return {
    grouping: row.grouping as TradeGrouping,
    key: String(row.key),
    totals: {
      totalTrades: Number(row.total_trades),
      winningTrades: Number(row.winning_trades),
      losingTrades: Number(row.losing_trades),
      grossProfit: decimalFrom(row.gross_profit),
      grossLoss: decimalFrom(row.gross_loss),
      winnersHoldingDays: Number(row.winners_holding_days),
      losersHoldingDays: Number(row.losers_holding_days),
    },
    maxProfitLoss: decimalFrom(row.max_pnl),
    minProfitLoss: decimalFrom(row.min_pnl),
  };
}
