import { Injectable } from '@nestjs/common';
import { Database, decimalFrom, decimalOrNullFrom, textOrNullFrom, type SqlRow } from '@app/persistence';
import { Decimal, type IsoDate } from '@app/shared/domain';
import { TradeReports, type DayRange, type MonthTradesJson, type ReportScope } from '../../application/trade-reports.port.js';
import type { DayTotals } from '../../domain/period-totals.js';
import type { OpenPosition, DividendPayment, ClosedTrade, MonthTrade, TradeResult, TradeSide, TradeSource } from '../../domain/closed-trade.js';
import type { SymbolAccountTotals } from '../../domain/symbol-summary.js';
import type { MonthTotals } from '../../domain/timeframe.js';
import { aggregatesFromGroups, type TradeAggregates } from '../../domain/trade-statistics.js';
import { GROUP_AGGREGATES, GROUP_COLUMNS, groupedTradesSql, statisticGroupOf, type StatisticGroupRow } from './trade-statistic-groups.js';
import { dateRangeOf, type TradeFilters, type TradeListPage, type TradeListQuery, type TradeSort } from '../../domain/trade-list.js';

// Numbers leave PostgreSQL as exact decimal text (`::text`), dates as `YYYY-MM-DD` (`to_char`): no
// floats and no time zones between the database and the domain.
const TRADE_COLUMNS = `trade_id, symbol, side, source, to_char(buy_date, 'YYYY-MM-DD') AS buy_date, to_char(sell_date, 'YYYY-MM-DD') AS sell_date,
  to_char(close_date, 'YYYY-MM-DD') AS close_date, to_char(open_date, 'YYYY-MM-DD') AS open_date, volume::text AS volume,
  buy_price::text AS buy_price, sell_price::text AS sell_price, cost_basis::text AS cost_basis, proceeds::text AS proceeds,
  profit_loss::text AS profit_loss, profit_per_share::text AS profit_per_share, return_pct::text AS return_pct, holding_days,
  trade_result, wash_sale, disallowed_loss::text AS disallowed_loss, term, buy_tx_price::text AS buy_tx_price,
  sell_tx_price::text AS sell_tx_price`;
/**
 * A trade as the JSON object the month's page shows (`monthTradeView` of its `MonthTrade`: the same
 * fields in the same order, the figures rounded as it rounds them, half away from zero, and written
 * without trailing zeros, as a number is). A busy month is tens of thousands of trades: made here, they
 * skip the trade and view objects and their serialising (34,000 trades: ~150 ms and their garbage).
 * Each step a trade costs counts there: the dates are written by the date type's own output (the
 * service's connections use the ISO `DateStyle`, `Database`) instead of `to_char`, and the side, the
 * source and the result, which the table's checks hold to a few words, go in without `to_json`: the
 * embedded engine's busiest month at a million trades (34,019) is first answered in 250–370 ms instead
 * of 330–480 ms. Plain fields, each trade's text built in the service, were slower still: the engine's
 * part fell to 100–180 ms, but joining the trades' 29 pieces each took V8 190–300 ms. The expression is
 * nearly all of the query's cost (the same read with a constant for it: ~20 ms of ~180 ms): its 28
 * concatenations (`concat()` of the pieces cost as much), the five figures (~55 ms), the symbol's
 * escaping and the dates (~20 ms each). `sql-trade-reports.spec` compares the two.
 */
const MONTH_TRADE_JSON = `'{"symbol":' || to_json(symbol)::text || ',"side":"' || side || '","source":"' || source
  || '","buy_date":"' || buy_date::text || '","sell_date":"' || sell_date::text || '","close_date":"' || close_date::text
  || '","buy_price":' || trim_scale(round(buy_price, 4)) || ',"sell_price":' || trim_scale(round(sell_price, 4))
  || ',"volume":' || trim_scale(round(volume, 6)) || ',"total_profit_loss":' || trim_scale(round(profit_loss, 2))
  || ',"return_percentage":' || trim_scale(round(return_pct, 2)) || ',"trade_result":"' || trade_result
  || '","holding_days":' || holding_days || ',"wash_sale":' || COALESCE(wash_sale::text, 'null') || '}'`;
const DIVIDEND_COLUMNS = `to_char(transaction_date, 'YYYY-MM-DD') AS transaction_date, symbol, action, amount::text AS amount`;
const TOTALS_COLUMNS = `trade_count::int AS trade_count, winning_trades::int AS winning_trades, trading_pnl::text AS trading_pnl,
  dividend_count::int AS dividend_count, dividends::text AS dividends`;
const SUMMED_TOTALS_COLUMNS = `SUM(trade_count)::int AS trade_count, SUM(winning_trades)::int AS winning_trades,
  SUM(trading_pnl)::text AS trading_pnl, SUM(dividend_count)::int AS dividend_count, SUM(dividends)::text AS dividends`;

/** Each sort's column and its value as exact text (the cursor carries it back as a typed parameter). */
const SORT_COLUMNS: Record<TradeSort, { column: string; text: string; type: string }> = {
  close_date: { column: 'close_date', text: "to_char(close_date, 'YYYY-MM-DD')", type: 'date' },
  open_date: { column: 'open_date', text: "to_char(open_date, 'YYYY-MM-DD')", type: 'date' },
  symbol: { column: 'symbol', text: 'symbol', type: 'text' },
  profit_loss: { column: 'profit_loss', text: 'profit_loss::text', type: 'numeric' },
  return_percentage: { column: 'return_pct', text: 'return_pct::text', type: 'numeric' },
  holding_days: { column: 'holding_days', text: 'holding_days::text', type: 'integer' },
  volume: { column: 'volume', text: 'volume::text', type: 'numeric' },
};

/**
 * The trading reports' read model on PostgreSQL (embedded or server): aggregates come from the
 * rollups the import maintains (`daily_totals`, `daily_symbol_totals`, `symbol_totals`); lists read
 * `closed_trades` and `dividends` through their (user, date) and (user, symbol, date) indexes.
 */
@Injectable()
export class SqlTradeReports extends TradeReports {
  constructor(private readonly database: Database) {
    super();
  }

  async monthlyTotals(scope: ReportScope): Promise<MonthTotals[]> {
    const params: unknown[] = [scope.userId];
    const rows = await this.query(
      `SELECT to_char(day, 'YYYY-MM') AS month, ${SUMMED_TOTALS_COLUMNS}
         FROM ${dailyTotalsOf(scope, params)} WHERE user_id = $1
        GROUP BY 1 ORDER BY 1 DESC`,
      params,
    );
    return rows.map((row) => ({ month: String(row.month), totals: toTotals(row) }));
  }

  async dailyTotals(scope: ReportScope, range: DayRange | null, symbols: readonly string[] | null): Promise<DayTotals[]> {
    const params: unknown[] = [scope.userId];
    const source = symbols === null ? dailyTotalsOf(scope, params) : dailySymbolTotalsOf(scope, params);
    const inRange = range === null ? '' : `AND day BETWEEN $${params.push(range.from)} AND $${params.push(range.to)}`;
    const rows =
      symbols === null
        ? await this.query(
            `SELECT to_char(day, 'YYYY-MM-DD') AS day, ${TOTALS_COLUMNS}
               FROM ${source} WHERE user_id = $1 ${inRange} ORDER BY day`,
            params,
          )
        : await this.query(
            `SELECT to_char(day, 'YYYY-MM-DD') AS day, ${SUMMED_TOTALS_COLUMNS}
               FROM ${source} WHERE user_id = $1 AND symbol = ANY($${params.push([...symbols])}::text[]) ${inRange}
              GROUP BY day ORDER BY day`,
            params,
          );
    return rows.map((row) => ({ date: String(row.day), ...toTotals(row) }));
  }

  async tradesClosedIn(scope: ReportScope, range: DayRange): Promise<ClosedTrade[]> {
    return (await this.closedIn(scope, range, TRADE_COLUMNS)).map(toTrade);
  }

  async monthTradesJson(scope: ReportScope, range: DayRange): Promise<MonthTradesJson> {
    // A row per day: its trades' objects joined in the reports' order, and their totals. A busy month's
    // 34,019 trades come as 22 rows, not 34,019, each of which cost the engine's protocol and the
    // driver's parsing (about 100 ms of the month's first answer), and its totals need no second query.
    // The objects are made below the aggregate, which orders them: a PostgreSQL 15 server then makes
    // them in its parallel workers and sorts each day's few in the aggregate (130–140 ms for that month,
    // 245 ms with the object made in the aggregate's argument), and PostgreSQL 16 and later (the embedded
    // engine) read them already in order from the index.
    const params: unknown[] = [scope.userId];
    const days = await this.query(
      `SELECT string_agg(trade, ',' ORDER BY account_id, seq) AS trades, count(*)::int AS trade_count,
              (count(*) FILTER (WHERE trade_result = 'Win'))::int AS winning_trades, sum(profit_loss)::text AS trading_pnl
         FROM (SELECT close_date, account_id, seq, trade_result, profit_loss, ${MONTH_TRADE_JSON} AS trade FROM closed_trades
                WHERE ${closedWithin(scope, range, params)} ORDER BY close_date, account_id, seq) AS month_trades
        GROUP BY close_date ORDER BY close_date`,
      params,
    );
    return {
      json: `[${days.map((day) => day.trades as string).join(',')}]`,
      tradeCount: days.reduce((count, day) => count + Number(day.trade_count), 0),
      winningTrades: days.reduce((count, day) => count + Number(day.winning_trades), 0),
      tradingProfitLoss: Decimal.sum(days.map((day) => decimalFrom(day.trading_pnl))),
    };
  }

  /** The `columns` of the trades closed in `range`, in the reports' order. */
  private closedIn(scope: ReportScope, range: DayRange, columns: string): Promise<SqlRow[]> {
    const params: unknown[] = [scope.userId];
    return this.query(
      `SELECT ${columns} FROM closed_trades
        WHERE ${closedWithin(scope, range, params)} ORDER BY close_date, account_id, seq`,
      params,
    );
  }

  async tradeListPage(scope: ReportScope, query: TradeListQuery): Promise<TradeListPage> {
    const params: unknown[] = [scope.userId];
    const where = filterClause(scope, query.filters, params, await this.taggedTrades(scope.userId, query.filters));
    const [totals] = await this.query(
      `SELECT count(*)::int AS total_count, (count(*) FILTER (WHERE profit_loss > 0))::int AS winning_trades,
              COALESCE(SUM(profit_loss), 0)::text AS net_profit_loss
         FROM closed_trades WHERE ${where}`,
      params,
    );
    const sort = SORT_COLUMNS[query.sort];
    const direction = query.order === 'asc' ? 'ASC' : 'DESC';
    const after =
      query.after === null
        ? ''
        : `AND (${sort.column}, account_id, seq) ${query.order === 'asc' ? '>' : '<'}
               ($${params.push(query.after.sortValue)}::${sort.type}, $${params.push(query.after.accountId)}::int, $${params.push(query.after.seq)}::int)`;
    // ORDER BY names the typed `sort_key`: the columns' names are also the text aliases of TRADE_COLUMNS.
    const rows = await this.query(
      `SELECT ${TRADE_COLUMNS}, account_id, seq, ${sort.column} AS sort_key, ${sort.text} AS sort_value
         FROM closed_trades WHERE ${where} ${after}
        ORDER BY sort_key ${direction}, account_id ${direction}, seq ${direction}
        LIMIT ${query.limit + 1}`,
      params,
    );
    const more = rows.length > query.limit;
    const listed = rows.slice(0, query.limit).map((row) => {
      const trade = toTrade(row);
      const accountId = Number(row.account_id);
      return { id: String(row.trade_id), trade, accountId, seq: Number(row.seq), sortValue: String(row.sort_value) };
    });
    const last = listed.at(-1);
    return {
      trades: listed.map(({ id, trade, accountId, seq }) => ({ id, trade, accountId, seq })),
      next: more && last !== undefined ? { sortValue: last.sortValue, accountId: last.accountId, seq: last.seq } : null,
      totalCount: Number(totals.total_count),
      winningTrades: Number(totals.winning_trades),
      netProfitLoss: decimalFrom(totals.net_profit_loss),
    };
  }

  async tradesMatching(scope: ReportScope, filters: TradeFilters): Promise<ClosedTrade[]> {
    const params: unknown[] = [scope.userId];
    const where = filterClause(scope, filters, params, await this.taggedTrades(scope.userId, filters));
    const rows = await this.query(`SELECT ${TRADE_COLUMNS} FROM closed_trades WHERE ${where} ORDER BY close_date, account_id, seq`, params);
    return rows.map(toTrade);
  }

  async tradeAggregates(scope: ReportScope, filters: TradeFilters): Promise<TradeAggregates> {
    const params: unknown[] = [scope.userId];
    const where = filterClause(scope, filters, params, await this.taggedTrades(scope.userId, filters));
    // All time, every symbol and account: the rollup the import keeps (a few rows per day, side, period,
    // symbol and bucket). Otherwise one scan of the selected trades, summed by each grouping at once.
    const groups = (
      isAllTrades(filters) && scope.accountId === null
        ? await this.query(
            `SELECT ${GROUP_COLUMNS} FROM trade_statistic_groups WHERE user_id = $1${filters.side === null ? '' : ' AND side = $2'}`,
            filters.side === null ? [scope.userId] : [scope.userId, filters.side],
          )
        : await this.query(
            `SELECT ${GROUP_COLUMNS}
               FROM (SELECT ${GROUP_AGGREGATES} FROM ${groupedTradesSql(where)}
                      GROUP BY GROUPING SETS ((day), (side), (period), (symbol), (bucket))) AS groups`,
            params,
          )
    ).map(statisticGroupOf);
    const days = groups.filter((group) => group.grouping === 'day').sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return aggregatesFromGroups(
      groups,
      await this.extremeTrade(where, params, days, (day) => day.maxProfitLoss, (a, b) => a.gt(b)),
      await this.extremeTrade(where, params, days, (day) => day.minProfitLoss, (a, b) => a.lt(b)),
    );
  }

  /**
   * The largest win (or loss) of a selection: the days' extremes name its value and the first day it
   * occurs on, and the (user, close date) index finds the trade, the first of equals as recorded.
   */
  private async extremeTrade(
    where: string,
    params: readonly unknown[],
    days: readonly StatisticGroupRow[],
    extremeOf: (day: StatisticGroupRow) => Decimal,
    beyond: (a: Decimal, b: Decimal) => boolean,
  ): Promise<ClosedTrade | null> {
    let found: { date: string; value: Decimal } | null = null;
    for (const day of days) {
      const value = extremeOf(day);
      if (beyond(value, found?.value ?? Decimal.ZERO)) found = { date: day.key, value };
    }
    if (found === null) return null;
    const select = [...params];
    const rows = await this.query(
      `SELECT ${TRADE_COLUMNS} FROM closed_trades
        WHERE ${where} AND close_date = $${select.push(found.date)} AND profit_loss = $${select.push(found.value.toString())}::numeric
        ORDER BY account_id, seq LIMIT 1`,
      select,
    );
    return rows.length === 0 ? null : toTrade(rows[0]);
  }

  async dividendsPaidIn(scope: ReportScope, range: DayRange): Promise<DividendPayment[]> {
    const params: unknown[] = [scope.userId];
    const rows = await this.query(
      `SELECT ${DIVIDEND_COLUMNS} FROM dividends
        WHERE ${scoped(scope, params)} AND transaction_date BETWEEN $${params.push(range.from)} AND $${params.push(range.to)}
        ORDER BY transaction_date, account_id, seq`,
      params,
    );
    return rows.map(toDividend);
  }

  async tradesOfSymbol(scope: ReportScope, symbol: string): Promise<ClosedTrade[]> {
    const params: unknown[] = [scope.userId];
    const rows = await this.query(
      `SELECT ${TRADE_COLUMNS} FROM closed_trades WHERE ${scoped(scope, params)} AND symbol = $${params.push(symbol)} ORDER BY close_date, account_id, seq`,
      params,
    );
    return rows.map(toTrade);
  }

  async dividendsOfSymbol(scope: ReportScope, symbol: string): Promise<DividendPayment[]> {
    const params: unknown[] = [scope.userId];
    const rows = await this.query(
      `SELECT ${DIVIDEND_COLUMNS} FROM dividends WHERE ${scoped(scope, params)} AND symbol = $${params.push(symbol)} ORDER BY transaction_date, account_id, seq`,
      params,
    );
    return rows.map(toDividend);
  }

  async symbolTotals(scope: ReportScope, symbol?: string): Promise<SymbolAccountTotals[]> {
    const params: unknown[] = [scope.userId];
    const rows = await this.query(
      `SELECT symbol, company_name, trade_count, winning_trades, trading_pnl::text AS trading_pnl, min_pnl::text AS min_pnl,
              max_pnl::text AS max_pnl, sum_return_pct::text AS sum_return_pct, min_return_pct::text AS min_return_pct,
              max_return_pct::text AS max_return_pct, sum_holding_days::text AS sum_holding_days, total_volume::text AS total_volume,
              total_cost_basis::text AS total_cost_basis, to_char(first_trade_date, 'YYYY-MM-DD') AS first_trade_date,
              to_char(last_trade_date, 'YYYY-MM-DD') AS last_trade_date, to_char(first_open_date, 'YYYY-MM-DD') AS first_open_date,
              dividend_count, dividends::text AS dividends, to_char(first_dividend_date, 'YYYY-MM-DD') AS first_dividend_date,
              to_char(last_dividend_date, 'YYYY-MM-DD') AS last_dividend_date, current_shares::text AS current_shares
         FROM symbol_totals WHERE ${scoped(scope, params)} ${symbol === undefined ? '' : `AND symbol = $${params.push(symbol)}`}
        ORDER BY symbol, account_id`,
      params,
    );
    return rows.map(toSymbolTotals);
  }

  async openPositions(scope: ReportScope, asOf: IsoDate | null, symbols: readonly string[] | null): Promise<OpenPosition[]> {
    const params: unknown[] = [scope.userId];
    const inScope = scoped(scope, params, 'k.');
    const onlySymbols = symbols === null ? '' : `AND k.symbol = ANY($${params.push([...symbols])}::text[])`;
    // Now: each account's latest position, kept in symbol_totals. At a date: the last change on or
    // before it, one primary-key probe per account and symbol.
    const rows =
      asOf === null
        ? await this.query(
            `SELECT k.symbol, SUM(k.current_shares)::text AS shares
               FROM symbol_totals k WHERE ${inScope} AND k.has_positions ${onlySymbols}
              GROUP BY k.symbol HAVING SUM(k.current_shares) <> 0 ORDER BY k.symbol`,
            params,
          )
        : await this.query(
            `SELECT k.symbol, SUM(p.shares)::text AS shares
               FROM symbol_totals k
               CROSS JOIN LATERAL (SELECT h.shares FROM position_history h
                                    WHERE h.account_id = k.account_id AND h.symbol = k.symbol AND h.as_of <= $${params.push(asOf)}
                                    ORDER BY h.as_of DESC LIMIT 1) p
              WHERE ${inScope} AND k.has_positions ${onlySymbols}
              GROUP BY k.symbol HAVING SUM(p.shares) <> 0 ORDER BY k.symbol`,
            params,
          );
    if (rows.length === 0) return [];
    const held = rows.map((row) => String(row.symbol));
    const [costs, prices] = await Promise.all([this.openCosts(scope, asOf, held), this.lastPrices(held)]);
    return rows.map((row) => ({
      symbol: String(row.symbol),
      shares: Decimal.parse(String(row.shares)),
      costBasis: costs.get(String(row.symbol)) ?? null,
      lastPrice: prices.get(String(row.symbol)) ?? null,
    }));
  }

  /**
   * The cost of what was open at the end of `asOf` (now when null), per symbol: the open lots opened by
   * then, plus the trades opened by then and closed after (a long counts its cost basis, a short minus
   * its proceeds). Splits change shares, never cost, so this holds across them.
   */
  private async openCosts(scope: ReportScope, asOf: IsoDate | null, symbols: readonly string[]): Promise<Map<string, Decimal>> {
    const params: unknown[] = [scope.userId];
    const inScope = scoped(scope, params);
    const held = `symbol = ANY($${params.push(symbols)}::text[])`;
    const rows =
      asOf === null
        ? await this.query(
            `SELECT symbol, SUM(CASE WHEN side = 'long' THEN cost ELSE -cost END)::text AS cost
               FROM open_lots WHERE ${inScope} AND ${held} GROUP BY symbol`,
            params,
          )
        : await this.query(
            `SELECT symbol, SUM(cost)::text AS cost
               FROM (SELECT symbol, CASE WHEN side = 'long' THEN cost ELSE -cost END AS cost FROM open_lots
                      WHERE ${inScope} AND ${held} AND open_date <= $${params.push(asOf)}
                     UNION ALL
                     SELECT symbol, CASE WHEN side = 'long' THEN cost_basis ELSE -proceeds END FROM closed_trades
                      WHERE ${inScope} AND ${held} AND close_date > $${params.length} AND open_date <= $${params.length}) AS open_then
              GROUP BY symbol`,
            params,
          );
    return new Map(rows.map((row) => [String(row.symbol), Decimal.parse(String(row.cost))]));
  }

  async accountNamed(userId: number, accountNumber: string): Promise<number | null> {
    const rows = await this.query('SELECT id FROM brokerage_accounts WHERE user_id = $1 AND account_number = $2', [userId, accountNumber]);
    return rows.length === 0 ? null : Number(rows[0].id);
  }

  /** The latest cached market prices (the portfolio's quote cache, shared by every user). */
  private async lastPrices(symbols: readonly string[]): Promise<Map<string, Decimal>> {
    const rows = await this.query(
      `SELECT symbol, current_price::text AS price FROM market_quotes WHERE symbol = ANY($1::text[]) AND current_price IS NOT NULL`,
      [symbols],
    );
    return new Map(rows.map((row) => [String(row.symbol), Decimal.parse(String(row.price))]));
  }

  /**
   * For the journal's filters: the ids of the user's trades carrying every tag asked for (`tag`), or
   * carrying any tag (`untagged`); null without them. Read first, through the tag index, and handed to
   * the trade query as a constant list, which PostgreSQL matches by hash whatever its statistics say
   * (the embedded engine keeps none): a subquery in its place was planned as a nested loop there.
   */
  private async taggedTrades(userId: number, filters: TradeFilters): Promise<string[] | null> {
    if (filters.tags === null && !filters.untagged) return null;
    const rows =
      filters.tags === null
        ? await this.query(`SELECT DISTINCT trade_id FROM trade_tags WHERE user_id = $1`, [userId])
        : await this.query(
            `SELECT trade_id FROM trade_tags WHERE user_id = $1 AND tag_key = ANY($2::text[]) GROUP BY trade_id HAVING count(*) = $3`,
            [userId, [...filters.tags], filters.tags.length],
          );
    return rows.map((row) => String(row.trade_id));
  }

  private async query(sql: string, params: unknown[]): Promise<SqlRow[]> {
    return (await this.database.manager.query(sql, params)) as SqlRow[];
  }
}

/** Every trade of the user, or of one side: what the all-time statistic groups hold. */
function isAllTrades(filters: TradeFilters): boolean {
  const { selection } = filters;
  return (
    selection.allTime &&
    selection.symbols === null &&
    filters.result === null &&
    filters.source === null &&
    filters.minHoldingDays === null &&
    filters.maxHoldingDays === null &&
    filters.tags === null &&
    !filters.untagged
  );
}

/** The rows of the scope: the user's (`$1`), of one account when it names one (its id pushed onto `params`). */
function scoped(scope: ReportScope, params: unknown[], alias = ''): string {
  return scope.accountId === null ? `${alias}user_id = $1` : `${alias}user_id = $1 AND ${alias}account_id = $${params.push(scope.accountId)}`;
}

/**
 * `daily_symbol_totals`, or for one account the same rows computed from its trades and dividends (the
 * rollup is kept per user: an account's figures are summed when asked for, as the rollup is built).
 */
function dailySymbolTotalsOf(scope: ReportScope, params: unknown[]): string {
  if (scope.accountId === null) return 'daily_symbol_totals';
  const account = scoped(scope, params);
  return `(SELECT $1::int AS user_id, symbol, day, SUM(trade_count) AS trade_count, SUM(winning_trades) AS winning_trades,
                  SUM(trading_pnl) AS trading_pnl, SUM(dividend_count) AS dividend_count, SUM(dividends) AS dividends
             FROM (SELECT symbol, close_date AS day, COUNT(*) AS trade_count, COUNT(*) FILTER (WHERE trade_result = 'Win') AS winning_trades,
                          SUM(profit_loss) AS trading_pnl, 0 AS dividend_count, 0::numeric AS dividends
                     FROM closed_trades WHERE ${account} GROUP BY symbol, close_date
                   UNION ALL
                   SELECT symbol, transaction_date, 0, 0, 0, COUNT(*), SUM(amount)
                     FROM dividends WHERE ${account} GROUP BY symbol, transaction_date) AS activity
            GROUP BY symbol, day) AS daily_symbol_totals`;
}

/** `daily_totals`, or for one account the same rows from `dailySymbolTotalsOf`. */
function dailyTotalsOf(scope: ReportScope, params: unknown[]): string {
  if (scope.accountId === null) return 'daily_totals';
  return `(SELECT user_id, day, SUM(trade_count) AS trade_count, SUM(winning_trades) AS winning_trades, SUM(trading_pnl) AS trading_pnl,
                  SUM(dividend_count) AS dividend_count, SUM(dividends) AS dividends
             FROM ${dailySymbolTotalsOf(scope, params)} GROUP BY user_id, day) AS daily_totals`;
}

/** The SQL condition of the trades in `scope` closed within `range` (the user is `$1`), its values pushed onto `params`. */
function closedWithin(scope: ReportScope, range: DayRange, params: unknown[]): string {
  return `${scoped(scope, params)} AND close_date BETWEEN $${params.push(range.from)} AND $${params.push(range.to)}`;
}

/** The SQL condition of `filters` in `scope` (the user is `$1`), its values pushed onto `params`; `tagged`: `taggedTrades` of them. */
function filterClause(scope: ReportScope, filters: TradeFilters, params: unknown[], tagged: readonly string[] | null): string {
  const conditions = [closedWithin(scope, dateRangeOf(filters.selection), params)];
  if (filters.selection.symbols !== null) conditions.push(`symbol = ANY($${params.push([...filters.selection.symbols])}::text[])`);
  if (filters.side !== null) conditions.push(`side = $${params.push(filters.side)}`);
  if (filters.result !== null) conditions.push(`trade_result = $${params.push(filters.result)}`);
  if (filters.source !== null) conditions.push(`source = $${params.push(filters.source)}`);
  if (filters.minHoldingDays !== null) conditions.push(`holding_days >= $${params.push(filters.minHoldingDays)}`);
  if (filters.maxHoldingDays !== null) conditions.push(`holding_days <= $${params.push(filters.maxHoldingDays)}`);
  // Tags: the trade is one of those carrying every tag named; untagged: none of those carrying a tag.
  if (tagged !== null) conditions.push(`trade_id ${filters.untagged ? '<> ALL' : '= ANY'}($${params.push([...tagged])}::text[])`);
  return conditions.join(' AND ');
}

function toTotals(row: SqlRow) {
  return {
    tradeCount: Number(row.trade_count),
    winningTrades: Number(row.winning_trades),
    tradingProfitLoss: decimalFrom(row.trading_pnl),
    dividendCount: Number(row.dividend_count),
    dividends: decimalFrom(row.dividends),
  };
}

function toTrade(row: SqlRow): ClosedTrade {
  return {
    id: String(row.trade_id),
    ...toMonthTrade(row),
    openDate: String(row.open_date),
    costBasis: decimalFrom(row.cost_basis),
    proceeds: decimalFrom(row.proceeds),
    profitPerShare: decimalFrom(row.profit_per_share),
    disallowedLoss: decimalOrNullFrom(row.disallowed_loss),
    term: textOrNullFrom(row.term),
    buyTxPrice: decimalOrNullFrom(row.buy_tx_price),
    sellTxPrice: decimalOrNullFrom(row.sell_tx_price),
  };
}

/** MonthTrade's columns (TRADE_COLUMNS holds them). */
function toMonthTrade(row: SqlRow): MonthTrade {
  return {
    symbol: String(row.symbol),
    side: row.side as TradeSide,
    source: row.source as TradeSource,
    buyDate: String(row.buy_date),
    sellDate: String(row.sell_date),
    closeDate: String(row.close_date),
    volume: decimalFrom(row.volume),
    buyPrice: decimalFrom(row.buy_price),
    sellPrice: decimalFrom(row.sell_price),
    totalProfitLoss: decimalFrom(row.profit_loss),
    returnPercentage: decimalFrom(row.return_pct),
    holdingDays: Number(row.holding_days),
    tradeResult: row.trade_result as TradeResult,
    washSale: row.wash_sale === null ? null : Boolean(row.wash_sale),
  };
}

function toDividend(row: SqlRow): DividendPayment {
  return { transactionDate: String(row.transaction_date), symbol: String(row.symbol), action: String(row.action), amount: decimalFrom(row.amount) };
}

function toSymbolTotals(row: SqlRow): SymbolAccountTotals {
  return {
    symbol: String(row.symbol),
    companyName: textOrNullFrom(row.company_name),
    tradeCount: Number(row.trade_count),
    winningTrades: Number(row.winning_trades),
    tradingProfitLoss: decimalFrom(row.trading_pnl),
    minProfitLoss: decimalOrNullFrom(row.min_pnl),
    maxProfitLoss: decimalOrNullFrom(row.max_pnl),
    sumReturnPercentage: decimalFrom(row.sum_return_pct),
    minReturnPercentage: decimalOrNullFrom(row.min_return_pct),
    maxReturnPercentage: decimalOrNullFrom(row.max_return_pct),
    sumHoldingDays: Number(row.sum_holding_days),
    totalVolume: decimalFrom(row.total_volume),
    totalCostBasis: decimalFrom(row.total_cost_basis),
    firstTradeDate: textOrNullFrom(row.first_trade_date),
    lastTradeDate: textOrNullFrom(row.last_trade_date),
    firstOpenDate: textOrNullFrom(row.first_open_date),
    dividendCount: Number(row.dividend_count),
    dividends: decimalFrom(row.dividends),
    firstDividendDate: textOrNullFrom(row.first_dividend_date),
    lastDividendDate: textOrNullFrom(row.last_dividend_date),
    currentShares: decimalFrom(row.current_shares),
  };
}
