import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import {
  arrayOf,
  boolean,
  dataEnvelope,
  integer,
  isoDate,
  isoMonth,
  literal,
  nullable,
  number,
  object,
  oneOfStrings,
  ref,
  string,
  type Schema,
  type SchemaSet,
} from '@app/shared/openapi';

// The trading reports' response bodies (report-views.ts, statistics-views.ts) for the OpenAPI document.

const money = (description?: string): Schema => number(description === undefined ? {} : { description });
const count = (description?: string): Schema => integer({ minimum: 0, ...(description === undefined ? {} : { description }) });
const percent = (description?: string): Schema => number(description === undefined ? {} : { description });
const side = oneOfStrings(['long', 'short']);
const source = oneOfStrings(['broker', 'fifo'], { description: '`broker`: from the realized-gains lots; `fifo`: matched by the service.' });
const tradeResult = oneOfStrings(['Win', 'Loss', 'Breakeven']);
const symbols = nullable(arrayOf(string()));

const trade: Record<string, Schema> = {
  symbol: string(),
  side,
  source,
  buy_date: isoDate({ description: 'The opening buy of a long, the covering buy of a short.' }),
  sell_date: isoDate(),
  close_date: isoDate({ description: 'The date the trade was closed: `sell_date` of a long, the cover date of a short.' }),
  open_date: isoDate(),
  buy_price: number(),
  sell_price: number(),
  volume: number({ description: 'Shares.' }),
  profit_per_share: number(),
  total_profit_loss: money(),
  return_percentage: percent(),
  trade_result: tradeResult,
  holding_days: count(),
  cost_basis: money(),
  proceeds: money(),
  wash_sale: nullable(boolean()),
  disallowed_loss: nullable(number()),
  term: nullable(string()),
  buy_tx_price: nullable(number()),
  sell_tx_price: nullable(number()),
};

const MONTH_TRADE_FIELDS = [
  'symbol',
  'side',
  'source',
  'buy_date',
  'sell_date',
  'close_date',
  'buy_price',
  'sell_price',
  'volume',
  'total_profit_loss',
  'return_percentage',
  'trade_result',
  'holding_days',
  'wash_sale',
];

const monthSummary = object({
  month: isoMonth(),
  total_trades: count(),
  winning_trades: count(),
  win_rate: percent(),
  trading_profit_loss: money(),
  total_dividends: money(),
  total_return_with_dividends: money(),
  dividend_count: count(),
});

const period: Record<string, Schema> = {
  trading_profit_loss: money(),
  total_dividends: money(),
  total_trades: count(),
  winning_trades: count(),
  win_rate_percentage: percent(),
  dividend_count: count(),
  total_return: money('Trading P&L plus dividends.'),
};

const breakdown: Record<string, Schema> = {
  total_trades: count(),
  winning_trades: count(),
  win_rate: nullable(number()),
  net_profit_loss: money(),
  average_profit_loss: nullable(number()),
};

const extremeTrade = nullable(
  object({ symbol: string(), side, open_date: isoDate(), close_date: isoDate(), total_profit_loss: money(), return_percentage: percent() }),
);
const dayAmount = nullable(object({ date: isoDate(), profit_loss: money() }));

const tagFilters = {
  tags: nullable(arrayOf(string(), { description: 'The `tag` filters (lower-cased): a trade carries every one.' })),
  untagged: boolean({ description: '`untagged=true`: only trades without tags.' }),
};

const statisticsFilters = object({
  all_time: boolean(),
  start_date: nullable(isoDate()),
  end_date: nullable(isoDate()),
  symbols,
  side: nullable(side),
  ...tagFilters,
});

const symbolSummaryItem: Record<string, Schema> = {
  symbol: string(),
  company_name: string(),
  has_trades: boolean(),
  total_trades: count(),
  trading_profit_loss: money(),
  winning_trades: count(),
  win_rate_percentage: percent(),
  avg_profit_loss: money(),
  min_profit_loss: nullable(number()),
  max_profit_loss: nullable(number()),
  avg_return_percentage: percent(),
  min_return_pct: nullable(number()),
  max_return_pct: nullable(number()),
  avg_holding_days: number(),
  total_volume: number(),
  total_cost_basis: money(),
  total_dividend_payments: count(),
  total_dividends: money(),
  avg_dividend_amount: money(),
  total_return: money(),
  first_trade_date: nullable(isoDate()),
  last_trade_date: nullable(isoDate()),
  first_open_date: nullable(isoDate()),
  first_dividend_date: nullable(isoDate()),
  last_dividend_date: nullable(isoDate()),
  current_shares_held: number(),
  has_open_position: boolean(),
};

const { symbol: _symbol, company_name: _name, has_trades: _hasTrades, ...symbolDetailFields } = symbolSummaryItem;

export const tradesSchemas: SchemaSet = {
  Trade: object(trade, [], { description: 'A completed trade with every field (`/api/trade-details`, symbols, days, the trade list).' }),
  MonthTrade: object(
    Object.fromEntries(MONTH_TRADE_FIELDS.map((name) => [name, trade[name]])),
    [],
    { description: "A trade in a month's listing: the fields the month page shows." },
  ),
  Dividend: object({ transaction_date: isoDate(), symbol: string(), action: string(), amount: money() }),
  MonthSummary: monthSummary,
  MonthsResponse: dataEnvelope({ months: arrayOf(monthSummary, { description: 'Most recent month first.' }) }),
  MonthResponse: dataEnvelope({ summary: ref('MonthSummary'), trades: arrayOf(ref('MonthTrade')), dividends: arrayOf(ref('Dividend')) }),
  TradeDetailsResponse: dataEnvelope({ month: isoMonth(), trades: arrayOf(ref('Trade')) }),
  PeriodMetrics: object(period),
  TimeframeResponse: dataEnvelope({
    data: object({
      summary: ref('PeriodMetrics'),
      weekly_summary: arrayOf(object({ week_start: isoDate(), period: isoDate(), ...period })),
      monthly_summary: arrayOf(object({ month_start: isoDate(), period: isoMonth(), ...period })),
      open_positions: arrayOf(
        object({
          symbol: string(),
          shares: number(),
          cost_basis: nullable(number({ description: 'What the shares open at the range end cost (a short: minus its proceeds); null without imported lots.' })),
          last_price: nullable(number({ description: 'The latest cached market price.' })),
          market_value: nullable(number({ description: 'shares × last_price.' })),
          unrealized_profit_loss: nullable(number({ description: 'market_value − cost_basis.' })),
        }),
      ),
      all_time: boolean(),
      start_date: nullable(isoDate()),
      end_date: nullable(isoDate()),
      symbols,
    }),
  }),
  SymbolsResponse: dataEnvelope({ symbols: arrayOf(object({ symbol: string(), company_name: string() })) }),
  SymbolSummaryItem: object(symbolSummaryItem),
  SymbolSummariesResponse: dataEnvelope({ symbols: arrayOf(ref('SymbolSummaryItem')) }),
  SymbolDetailSummary: object({
    ...symbolDetailFields,
    min_profit_loss: money('0 without trades.'),
    max_profit_loss: money('0 without trades.'),
    min_return_pct: percent('0 without trades.'),
    max_return_pct: percent('0 without trades.'),
    avg_return_pct: percent(),
  }),
  SymbolDetailResponse: dataEnvelope({
    data: object({
      symbol: string(),
      company_name: string(),
      summary: ref('SymbolDetailSummary'),
      trades: arrayOf(ref('JournaledTrade')),
      dividends: arrayOf(ref('Dividend')),
    }),
  }),
  CalendarDay: object({
    date: isoDate(),
    day: integer({ minimum: 1, maximum: 31 }),
    day_of_week: integer({ minimum: 0, maximum: 6, description: '0 = Sunday.' }),
    trade_count: count(),
    winning_trades: count(),
    trading_pnl: money(),
    dividend_count: count(),
    dividends: money(),
    total_pnl: money(),
    has_activity: boolean(),
    week_start: isoDate(),
    week_trade_count: count(),
    week_winning_trades: count(),
    week_trading_pnl: money(),
    week_dividends: money(),
    week_total_pnl: money(),
    week_win_rate: percent(),
  }),
  CalendarResponse: dataEnvelope({ year: integer(), month: integer({ minimum: 1, maximum: 12 }), days: arrayOf(ref('CalendarDay')) }),
  DaySummary: object({
    date: isoDate(),
    total_trading_pnl: money(),
    total_dividends: money(),
    total_pnl: money(),
    trade_count: count(),
    dividend_count: count(),
    winning_trades: count(),
    win_rate: percent(),
  }),
  DayDetailsResponse: dataEnvelope({ date: isoDate(), trades: arrayOf(ref('JournaledTrade')), dividends: arrayOf(ref('Dividend')), summary: ref('DaySummary') }),
  StatisticsFilters: statisticsFilters,
  TradeStatistics: object({
    total_trades: count(),
    winning_trades: count(),
    losing_trades: count(),
    breakeven_trades: count(),
    win_rate: nullable(number()),
    win_rate_excluding_breakeven: nullable(number()),
    gross_profit: money(),
    gross_loss: money(),
    net_profit_loss: money(),
    profit_factor: nullable(number()),
    average_win: nullable(number()),
    average_loss: nullable(number()),
    payoff_ratio: nullable(number()),
    expectancy: nullable(number()),
    largest_win: extremeTrade,
    largest_loss: extremeTrade,
    average_holding_days_winners: nullable(number()),
    average_holding_days_losers: nullable(number()),
    trading_days: count(),
    green_days: count(),
    red_days: count(),
    best_day: dayAmount,
    worst_day: dayAmount,
    average_daily_profit_loss: nullable(number()),
    daily_profit_loss_std_dev: nullable(number()),
    max_winning_day_streak: count(),
    max_losing_day_streak: count(),
    current_day_streak: integer({ description: 'Positive: winning days in a row up to the last day; negative: losing days.' }),
    max_drawdown: object({ amount: money(), peak_date: nullable(isoDate()), trough_date: nullable(isoDate()), recovery_date: nullable(isoDate()) }),
    by_side: arrayOf(object({ side, ...breakdown })),
    by_weekday: arrayOf(object({ weekday: string(), ...breakdown })),
    by_holding_period: arrayOf(object({ holding_period: string(), ...breakdown })),
    by_symbol: object({ winners: arrayOf(object({ symbol: string(), ...breakdown })), losers: arrayOf(object({ symbol: string(), ...breakdown })) }),
    profit_loss_distribution: arrayOf(object({ from: nullable(number()), to: nullable(number()), trades: count() })),
  }),
  StatisticsResponse: dataEnvelope({ filters: ref('StatisticsFilters'), statistics: ref('TradeStatistics') }),
  EquityPoint: object({
    date: isoDate(),
    trading_profit_loss: money(),
    dividends: money(),
    cumulative_trading_profit_loss: money(),
    cumulative_total_return: money(),
    drawdown: money(),
  }),
  EquityCurveResponse: dataEnvelope({ filters: ref('StatisticsFilters'), points: arrayOf(ref('EquityPoint')) }),
  JournaledTrade: object(
    {
      id: string({ pattern: '^[0-9a-f]{20}$', description: 'Stable across re-imports of the same trade (docs/api.md "Trade list").' }),
      ...trade,
      tags: arrayOf(string(), { description: 'Its tags (docs/api.md "Journal"), as first written, by name.' }),
      has_note: boolean({ description: 'Whether it has a note (`GET /api/trades/{id}/note`).' }),
    },
    [],
    { description: 'A stored trade with its id and journal: the trade list, a day, a symbol.' },
  ),
  TradeListResponse: dataEnvelope({
    filters: object({
      all_time: boolean(),
      start_date: nullable(isoDate()),
      end_date: nullable(isoDate()),
      symbols,
      side: nullable(side),
      result: nullable(tradeResult),
      source: nullable(source),
      min_holding_days: nullable(integer()),
      max_holding_days: nullable(integer()),
      ...tagFilters,
    }),
    sort: string(),
    order: oneOfStrings(['asc', 'desc']),
    trades: arrayOf(ref('JournaledTrade')),
    next_cursor: nullable(string({ description: 'Null on the last page.' })),
    total_count: count(),
    summary: object({ total_trades: count(), net_profit_loss: money(), win_rate: percent() }),
  }),
};

const noteFields = {
  note: nullable(string({ description: 'As written (plain text or Markdown); null when there is none.' })),
  updated_at: nullable(string({ format: 'date-time' })),
};

/** The journal's response bodies (journal-views.ts). */
export const journalSchemas: SchemaSet = {
  TradeTagsResponse: object({ success: literal(true), id: string(), tags: arrayOf(string()) }),
  TagSelectionResponse: object({
    success: literal(true),
    trades: count('The trades named.'),
    added: arrayOf(object({ name: string({ description: 'As stored.' }), trades: count('The trades that did not carry it before.') })),
    removed: arrayOf(object({ name: string(), trades: count('The trades that carried it.') })),
    message: string(),
  }),
  TradeNoteResponse: object({ success: literal(true), id: string(), ...noteFields }),
  DayNoteResponse: object({ success: literal(true), date: isoDate(), ...noteFields }),
  TagFigures: object({
    name: string({ description: 'As first written.' }),
    total_trades: count(),
    winning_trades: count(),
    losing_trades: count(),
    win_rate: nullable(percent('Winning ÷ total × 100; null without trades.')),
    gross_profit: money(),
    gross_loss: money(),
    net_profit_loss: money(),
    profit_factor: nullable(number({ description: 'Gross profit ÷ |gross loss|; null without a loss.' })),
    expectancy: nullable(money('Net P&L ÷ trades; null without trades.')),
  }),
  TagsResponse: object({ success: literal(true), tags: arrayOf(ref('TagFigures')) }),
  TagChangedResponse: object({ success: literal(true), name: string(), merged: boolean(), message: string() }),
  TagDeletedResponse: object({ success: literal(true), name: string(), trades_untagged: count(), message: string() }),
  JournalOrphansResponse: object({
    success: literal(true),
    orphans: arrayOf(
      object({
        id: string(),
        symbol: string(),
        side,
        open_date: isoDate(),
        close_date: isoDate(),
        volume: number(),
        total_profit_loss: money(),
        tags: arrayOf(string()),
        note: nullable(string()),
      }),
    ),
    count: count(),
  }),
  OrphanDiscardedResponse: object({ success: literal(true), id: string(), message: string() }),
  TagImportResponse: object({
    success: literal(true),
    lines: count('Lines with content after the header.'),
    matched: count('Lines whose trades were tagged.'),
    trades_tagged: count(),
    ambiguous: count('Lines naming trades of several closing fills: nothing tagged.'),
    unmatched: count('Lines naming no trade, or unreadable.'),
    problems: arrayOf(object({ line: integer({ minimum: 2 }), kind: oneOfStrings(['ambiguous', 'unmatched']), reason: string() })),
    message: string(),
  }),
};

/** The range and symbol filters every report over a selection of trades reads. */
export function ApiTradeSelection(): MethodDecorator {
  return applyDecorators(
    ApiQuery({ name: 'all', required: false, schema: oneOfStrings(['true', 'false']), description: '`true`: all time; `start` and `end` are then ignored.' }),
    ApiQuery({ name: 'start', required: false, schema: isoDate(), description: 'First day, inclusive (also `start_date`).' }),
    ApiQuery({ name: 'end', required: false, schema: isoDate(), description: 'Last day, inclusive (also `end_date`).' }),
    ApiQuery({ name: 'symbols', required: false, schema: string(), description: 'Comma-separated tickers.' }),
  );
}

/** `/api/statistics` and `/api/equity-curve`: the trade selection, a symbol list and the side. */
export function ApiStatisticsFilters(): MethodDecorator {
  return applyDecorators(
    ApiTradeSelection(),
    ApiQuery({ name: 'symbol', required: false, schema: string(), description: 'A ticker; repeatable or comma-separated.' }),
    ApiQuery({ name: 'side', required: false, schema: side }),
    ApiQuery({
      name: 'tag',
      required: false,
      schema: arrayOf(string({ maxLength: 40 })),
      style: 'form',
      explode: true,
      description: 'A tag (any case); repeatable: a trade must carry every one.',
    }),
    ApiQuery({ name: 'untagged', required: false, schema: oneOfStrings(['true', 'false']), description: '`true`: only trades without tags.' }),
  );
}

/** The trade list's filters (`/api/trades` and its CSV download): the statistics filters plus result, source and holding days. */
export function ApiTradeListFilters(): MethodDecorator {
  return applyDecorators(
    ApiStatisticsFilters(),
    ApiQuery({ name: 'result', required: false, schema: tradeResult }),
    ApiQuery({ name: 'source', required: false, schema: source }),
    ApiQuery({ name: 'min_holding_days', required: false, schema: integer({ minimum: 0, maximum: 110000 }) }),
    ApiQuery({ name: 'max_holding_days', required: false, schema: integer({ minimum: 0, maximum: 110000 }) }),
  );
}

/** `/api/trades`: the filters, the order and the page. */
export function ApiTradeListParameters(): MethodDecorator {
  return applyDecorators(
    ApiTradeListFilters(),
    ApiQuery({
      name: 'sort',
      required: false,
      schema: oneOfStrings(['close_date', 'open_date', 'symbol', 'profit_loss', 'return_percentage', 'holding_days', 'volume'], { default: 'close_date' }),
    }),
    ApiQuery({ name: 'order', required: false, schema: oneOfStrings(['asc', 'desc'], { default: 'desc' }) }),
    ApiQuery({ name: 'limit', required: false, schema: integer({ minimum: 1, maximum: 500, default: 100 }) }),
    ApiQuery({ name: 'cursor', required: false, schema: string(), description: 'The `next_cursor` of the previous page, with the same filters, sort and order.' }),
  );
}
