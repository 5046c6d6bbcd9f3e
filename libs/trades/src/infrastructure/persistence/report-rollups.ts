import type { Database, SqlRow } from '@app/persistence/sql';
import { ADD_STATISTIC_GROUPS, REFRESH_STATISTIC_GROUPS } from './trade-statistic-groups.js';

/**
 * Rebuilds a user's report rollups (`daily_symbol_totals`, `daily_totals`, `symbol_totals`,
 * `trade_statistic_groups`) from the
 * trades, dividends and positions the ledger has just written, and raises the user's report version
 * row (which a server's trigger announces at commit). Called by `SqlTradeLedger.replaceAccount`, inside
 * the import's transaction: the rollups change with the data, atomically, or not at all. The whole user
 * is rebuilt (all their accounts), set-based. When the rewritten account is all the user holds, the
 * ledger writes the same rows from memory instead (`rollupJobs`, `otherAccountsHoldLedgers`).
 */
export async function refreshTradeReports(database: Pick<Database, 'manager'>, userId: number): Promise<void> {
  const manager = database.manager;
  for (const statement of [...REFRESH_STATEMENTS, ...REFRESH_STATISTIC_GROUPS]) {
    await manager.query(statement, [userId]);
  }
  await raiseReportVersion(manager, userId);
}

/**
 * Takes into a user's rollups what `SqlTradeLedger.appendToAccount` has just added to one account:
 * its trades, dividends and positions, all dated after `after` (the account's last stored day before).
 * The day rollups of the days after it are built again (other accounts of the user share those rows);
 * the statistic groups and the totals of the symbols the new rows touch take the new rows in (sums,
 * counts, extremes, first and last dates, the latest position: what a rebuild would give, from a day's
 * rows instead of each symbol's whole history), and those symbols' company names are brought up to
 * date. Then the report version is raised, as after a rebuild.
 */
export async function appendTradeReports(database: Pick<Database, 'manager'>, userId: number, accountId: number, after: string, symbols: readonly string[]): Promise<void> {
  const manager = database.manager;
  for (const statement of APPENDED_DAY_TOTALS) await manager.query(statement, [userId, after]);
  for (const statement of ADD_STATISTIC_GROUPS) await manager.query(statement, [userId, accountId, after]);
  await manager.query(ADD_SYMBOL_TOTALS, [userId, accountId, symbols, after]);
  await manager.query(UPDATE_COMPANY_NAMES, [userId, accountId, symbols]);
  await raiseReportVersion(manager, userId);
}

/**
 * Whether another of the user's accounts holds trades, dividends or positions, which the user's rollups
 * sum in too: when none does, an account's ledger in memory gives all the rollups (`rollupJobs`).
 */
export async function otherAccountsHoldLedgers(manager: Database['manager'], userId: number, accountId: number): Promise<boolean> {
  const [{ held }]: SqlRow[] = await manager.query(
    `SELECT EXISTS (SELECT 1 FROM brokerage_accounts a WHERE a.user_id = $1 AND a.id <> $2
                       AND (EXISTS (SELECT 1 FROM closed_trades t WHERE t.account_id = a.id)
                            OR EXISTS (SELECT 1 FROM dividends d WHERE d.account_id = a.id)
                            OR EXISTS (SELECT 1 FROM position_history p WHERE p.account_id = a.id))) AS held`,
    [userId, accountId],
  );
  return Boolean(held);
}

/** Raises the user's report version (a server's trigger announces it at commit): their cached reports are stale. */
export async function raiseReportVersion(manager: Database['manager'], userId: number): Promise<void> {
  await manager.query(reportVersionRaise('(VALUES (1)) AS one'), [userId]);
}

/** The statement that raises the user's ($1) report version if `source` (a FROM item of at most one row) gives a row. */
export function reportVersionRaise(source: string): string {
  return `INSERT INTO report_versions (user_id, version) SELECT $1, 1 FROM ${source}
     ON CONFLICT (user_id) DO UPDATE SET version = report_versions.version + 1`;
}

const REFRESH_STATEMENTS = [...dayTotalsStatements(null), `DELETE FROM symbol_totals WHERE user_id = $1`, symbolTotalsInsert('user_id = $1')];

/**
 * The user's ($1) day rollups built again from their trades and dividends: all days, or with `after`
 * (a parameter such as `$2`) the days after it only, whose rows an append has just added to.
 */
function dayTotalsStatements(after: string | null): string[] {
  const since = (column: string) => (after === null ? '' : ` AND ${column} > ${after}`);
  return [
    `DELETE FROM daily_symbol_totals WHERE user_id = $1${since('day')}`,
    `INSERT INTO daily_symbol_totals (user_id, symbol, day, trade_count, winning_trades, trading_pnl, dividend_count, dividends)
     SELECT $1, symbol, day, SUM(trade_count)::int, SUM(winning_trades)::int, SUM(trading_pnl), SUM(dividend_count)::int, SUM(dividends)
       FROM (SELECT symbol, close_date AS day, COUNT(*) AS trade_count, COUNT(*) FILTER (WHERE trade_result = 'Win') AS winning_trades,
                    SUM(profit_loss) AS trading_pnl, 0 AS dividend_count, 0::numeric AS dividends
               FROM closed_trades WHERE user_id = $1${since('close_date')} GROUP BY symbol, close_date
             UNION ALL
             SELECT symbol, transaction_date, 0, 0, 0, COUNT(*), SUM(amount)
               FROM dividends WHERE user_id = $1${since('transaction_date')} GROUP BY symbol, transaction_date) AS activity
      GROUP BY symbol, day`,
    `DELETE FROM daily_totals WHERE user_id = $1${since('day')}`,
    `INSERT INTO daily_totals (user_id, day, trade_count, winning_trades, trading_pnl, dividend_count, dividends)
     SELECT $1, day, SUM(trade_count), SUM(winning_trades), SUM(trading_pnl), SUM(dividend_count), SUM(dividends)
       FROM daily_symbol_totals WHERE user_id = $1${since('day')} GROUP BY day`,
  ];
}

/**
 * The company names of one account's ($2) symbols ($3) in the user's ($1) symbol totals, from
 * `securities` (whose rows are never deleted, so a name found before is found again). Each symbol's
 * name is looked up by its key, not joined: with the symbols' list in the join, the planner could
 * read the account's totals first (their statistics not yet refreshed after an import, it reckoned
 * one row) and search the names' index with the list for each of them: a day of 1,205 symbols into an
 * account of 10,260 took 5.4 s.
 */
const UPDATE_COMPANY_NAMES = `UPDATE symbol_totals t
    SET company_name = (SELECT s.company_name FROM securities s WHERE s.account_id = t.account_id AND s.symbol = t.symbol)
  WHERE t.user_id = $1 AND t.account_id = $2 AND t.symbol = ANY($3::text[])
    AND t.company_name IS DISTINCT FROM (SELECT s.company_name FROM securities s WHERE s.account_id = t.account_id AND s.symbol = t.symbol)`;

/** The day rollups of the days after $2 (an append adds trades and dividends only after its account's last stored day). */
const APPENDED_DAY_TOTALS = dayTotalsStatements('$2');

/**
 * The totals of the new rows of one account ($2) and some of its symbols ($3), dated after $4, added
 * to what the account's symbols held: the appended trades, dividends and positions all come after
 * every stored one, so the sums and counts add up, the extremes and the first and last dates compare,
 * and a new position is the latest.
 */
const ADD_SYMBOL_TOTALS = `${symbolTotalsInsert('user_id = $1 AND account_id = $2 AND symbol = ANY($3::text[])', '$4')}
   ON CONFLICT (user_id, symbol, account_id) DO UPDATE SET
     trade_count = totals.trade_count + EXCLUDED.trade_count, winning_trades = totals.winning_trades + EXCLUDED.winning_trades,
     trading_pnl = totals.trading_pnl + EXCLUDED.trading_pnl, min_pnl = LEAST(totals.min_pnl, EXCLUDED.min_pnl),
     max_pnl = GREATEST(totals.max_pnl, EXCLUDED.max_pnl), sum_return_pct = totals.sum_return_pct + EXCLUDED.sum_return_pct,
     min_return_pct = LEAST(totals.min_return_pct, EXCLUDED.min_return_pct), max_return_pct = GREATEST(totals.max_return_pct, EXCLUDED.max_return_pct),
     sum_holding_days = totals.sum_holding_days + EXCLUDED.sum_holding_days, total_volume = totals.total_volume + EXCLUDED.total_volume,
     total_cost_basis = totals.total_cost_basis + EXCLUDED.total_cost_basis,
     first_trade_date = LEAST(totals.first_trade_date, EXCLUDED.first_trade_date), last_trade_date = GREATEST(totals.last_trade_date, EXCLUDED.last_trade_date),
     first_open_date = LEAST(totals.first_open_date, EXCLUDED.first_open_date),
     dividend_count = totals.dividend_count + EXCLUDED.dividend_count, dividends = totals.dividends + EXCLUDED.dividends,
     first_dividend_date = LEAST(totals.first_dividend_date, EXCLUDED.first_dividend_date),
     last_dividend_date = GREATEST(totals.last_dividend_date, EXCLUDED.last_dividend_date),
     has_positions = totals.has_positions OR EXCLUDED.has_positions,
     current_shares = CASE WHEN EXCLUDED.has_positions THEN EXCLUDED.current_shares ELSE totals.current_shares END,
     broker_trades = totals.broker_trades + EXCLUDED.broker_trades, fifo_long = totals.fifo_long OR EXCLUDED.fifo_long,
     fifo_short = totals.fifo_short OR EXCLUDED.fifo_short`;

/**
 * Per account and symbol, the totals of the trades, dividends and positions `where` selects ($1: the
 * user), with `after` (a parameter such as `$4`) only those dated after it. One aggregate over the
 * three kinds of rows together, not one per kind joined on account and symbol: with `after`, the
 * planner reckoned each kind a handful of rows and joined them in nested loops, 1.4 million
 * comparisons for a busy day's 1,200 symbols (160 ms of a day's upload into a million rows).
 * Positions are found by account (their primary key; the table has no index by user).
 */
function symbolTotalsInsert(where: string, after: string | null = null): string {
  const since = (column: string) => (after === null ? '' : ` AND ${column} > ${after}`);
  return `INSERT INTO symbol_totals AS totals (user_id, account_id, symbol, company_name, trade_count, winning_trades, trading_pnl, min_pnl, max_pnl,
                              sum_return_pct, min_return_pct, max_return_pct, sum_holding_days, total_volume, total_cost_basis,
                              first_trade_date, last_trade_date, first_open_date, dividend_count, dividends, first_dividend_date,
                              last_dividend_date, has_positions, current_shares, broker_trades, fifo_long, fifo_short)
   SELECT $1, r.account_id, r.symbol, s.company_name, r.trade_count, r.winning_trades, r.trading_pnl, r.min_pnl, r.max_pnl,
          r.sum_return_pct, r.min_return_pct, r.max_return_pct, r.sum_holding_days, r.total_volume, r.total_cost_basis,
          r.first_trade_date, r.last_trade_date, r.first_open_date, r.dividend_count, r.dividends, r.first_dividend_date,
          r.last_dividend_date, r.has_positions, r.current_shares, r.broker_trades, r.fifo_long, r.fifo_short
     FROM (SELECT account_id, symbol, COUNT(*) FILTER (WHERE kind = 'trade') AS trade_count,
                  COUNT(*) FILTER (WHERE kind = 'trade' AND trade_result = 'Win') AS winning_trades,
                  COALESCE(SUM(profit_loss), 0) AS trading_pnl, MIN(profit_loss) AS min_pnl, MAX(profit_loss) AS max_pnl,
                  COALESCE(SUM(return_pct), 0) AS sum_return_pct, MIN(return_pct) AS min_return_pct, MAX(return_pct) AS max_return_pct,
                  COALESCE(SUM(holding_days), 0) AS sum_holding_days, COALESCE(SUM(volume), 0) AS total_volume,
                  COALESCE(SUM(cost_basis), 0) AS total_cost_basis, MIN(close_date) AS first_trade_date, MAX(close_date) AS last_trade_date,
                  LEAST(MIN(open_date), MIN(as_of)) AS first_open_date,
                  COUNT(*) FILTER (WHERE kind = 'dividend') AS dividend_count, COALESCE(SUM(amount), 0) AS dividends,
                  MIN(transaction_date) AS first_dividend_date, MAX(transaction_date) AS last_dividend_date,
                  bool_or(kind = 'position') AS has_positions,
                  COALESCE((array_agg(shares ORDER BY as_of DESC) FILTER (WHERE kind = 'position'))[1], 0) AS current_shares,
                  COUNT(*) FILTER (WHERE source = 'broker') AS broker_trades,
                  COALESCE(bool_or(source = 'fifo' AND side = 'long'), false) AS fifo_long,
                  COALESCE(bool_or(source = 'fifo' AND side = 'short'), false) AS fifo_short
             FROM (SELECT account_id, symbol, 'trade' AS kind, trade_result, profit_loss, return_pct, holding_days, volume, cost_basis,
                          close_date, open_date, source, side, NULL::numeric AS amount, NULL::date AS transaction_date,
                          NULL::date AS as_of, NULL::numeric AS shares
                     FROM closed_trades WHERE ${where}${since('close_date')}
                   UNION ALL
                   SELECT account_id, symbol, 'dividend', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, amount, transaction_date, NULL, NULL
                     FROM dividends WHERE ${where}${since('transaction_date')} AND symbol <> ''
                   UNION ALL
                   SELECT account_id, symbol, 'position', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, as_of, shares
                     FROM position_history
                    WHERE account_id IN (SELECT id FROM brokerage_accounts WHERE user_id = $1) AND ${where}${since('as_of')}) AS activity
            GROUP BY account_id, symbol) AS r
     LEFT JOIN securities s ON s.account_id = r.account_id AND s.symbol = r.symbol`;
}
