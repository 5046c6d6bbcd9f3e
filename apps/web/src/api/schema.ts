// Generated from the OpenAPI document (docs/openapi.json) by `npm run openapi`: do not edit.
// The document is built from the controllers and the contexts' *.openapi.ts; change those instead.

export interface Account {
  account_id: number;
  account_number: string;
  /** The profile's account: where `POST /api/upload-csv` imports. */
  default: boolean;
}

export interface AccountsResponse {
  success: true;
  accounts: Account[];
}

export interface AllocationResponse {
  success: true;
  total_value: number;
  unpriced_count: number;
  by_symbol: {
    symbol: string;
    value: number;
    weight: number;
  }[];
  by_type: {
    type: 'stock' | 'etf' | 'mutual_fund';
    value: number;
    weight: number;
  }[];
  data_source: 'postgresql';
}

export interface CalendarDay {
  date: string;
  day: number;
  /** 0 = Sunday. */
  day_of_week: number;
  trade_count: number;
  winning_trades: number;
  trading_pnl: number;
  dividend_count: number;
  dividends: number;
  total_pnl: number;
  has_activity: boolean;
  week_start: string;
  week_trade_count: number;
  week_winning_trades: number;
  week_trading_pnl: number;
  week_dividends: number;
  week_total_pnl: number;
  week_win_rate: number;
}

export interface CalendarResponse {
  success: true;
  year: number;
  month: number;
  days: CalendarDay[];
  data_source: 'postgresql';
}

export interface CreateHoldingDto {
  /** A ticker; trimmed and upper-cased. */
  symbol: string;
  holding_type: 'stock' | 'etf' | 'mutual_fund';
  /** At most 6 decimals. */
  shares: number;
  /** At most 6 decimals. */
  average_cost: number;
  notes?: string;
  /** The date the position was opened (1900–2199). */
  purchase_date?: string;
}

export interface CreateSnapshotDto {
  snapshot_type?: 'MANUAL' | 'AUTOMATIC' | 'EOD';
  notes?: string;
}

export interface DayDetailsResponse {
  success: true;
  date: string;
  trades: JournaledTrade[];
  dividends: Dividend[];
  summary: DaySummary;
  data_source: 'postgresql';
}

export interface DayNoteResponse {
  success: true;
  date: string;
  /** As written (plain text or Markdown); null when there is none. */
  note: string | null;
  updated_at: string | null;
}

export interface DaySummary {
  date: string;
  total_trading_pnl: number;
  total_dividends: number;
  total_pnl: number;
  trade_count: number;
  dividend_count: number;
  winning_trades: number;
  win_rate: number;
}

export interface DetailedHealth {
  status: 'healthy' | 'degraded';
  /** UTC wall-clock time with microseconds and no zone suffix. */
  timestamp: string;
  service: 'stocks-trading-analysis';
  checks: {
    database: HealthCheck;
    environment: HealthCheck;
    disk_space: HealthCheck;
  };
}

export interface Dividend {
  transaction_date: string;
  symbol: string;
  action: string;
  amount: number;
}

export interface EquityCurveResponse {
  success: true;
  filters: StatisticsFilters;
  points: EquityPoint[];
  data_source: 'postgresql';
}

export interface EquityPoint {
  date: string;
  trading_profit_loss: number;
  dividends: number;
  cumulative_trading_profit_loss: number;
  cumulative_total_return: number;
  drawdown: number;
}

/** A refused or failed request. 401 bodies add `redirect_to_login: true`. */
export interface ErrorResponse {
  success: false;
  /** What went wrong, for a person to read. */
  error: string;
  redirect_to_login?: true;
}

export interface Health {
  status: 'healthy';
  /** UTC wall-clock time with microseconds and no zone suffix. */
  timestamp: string;
  service: 'stocks-trading-analysis';
}

export interface HealthCheck {
  status: 'healthy' | 'unhealthy';
  message: string;
}

export interface HistorySnapshot {
  id: number;
  snapshot_time: string;
  /** Of the priced holdings: one without any known price is left out of value, cost and gain (`unpriced_count`). */
  total_value: number;
  total_cost: number;
  total_gain_loss: number;
  total_return_pct: number;
  holdings_count: number;
  unpriced_count: number;
  snapshot_type: 'MANUAL' | 'AUTOMATIC' | 'EOD';
  notes: string;
  trading_date: string | null;
}

export interface Holding {
  id: number;
  symbol: string;
  holding_type: 'stock' | 'etf' | 'mutual_fund';
  shares: number;
  average_cost: number;
  current_price: number | null;
  total_cost: number;
  current_value: number | null;
  gain_loss: number | null;
  return_percentage: number | null;
  last_updated: string | null;
  /** The price is older than the refresh interval. */
  price_stale: boolean;
  source: 'manual';
  notes: string;
  purchase_date: string | null;
  created_at: string;
  updated_at: string;
  /** In the list: an import also holds this symbol (listed apart by /api/positions). */
  also_imported?: boolean;
}

export interface HoldingChangedResponse {
  success: true;
  message: string;
  holding: Holding;
}

export interface HoldingsResponse {
  success: true;
  holdings: Holding[];
  count: number;
  stale_prices: number;
  totals: PortfolioTotals;
  data_source: 'postgresql';
}

export interface HoldingsUploadResponse {
  success: true;
  imported: number;
  updated: number;
  /** Rows skipped, each naming its row number and the reason. */
  errors: string[];
  message: string;
}

export interface HolidaysResponse {
  success: true;
  year: number;
  holidays: {
    date: string;
    name: string;
    type: 'holiday' | 'early_close';
    /** Early closes only. */
    close_time?: string;
  }[];
}

export interface ImportedAccountEmptiedResponse {
  success: true;
  /** The account number. */
  account: string;
  transactions_removed: number;
  lots_removed: number;
  /** Months whose trades or dividends the account held. */
  months_updated: number;
  message: string;
}

export interface ImportFormatsResponse {
  success: true;
  formats: {
    id: string;
    label: string;
    broker: string;
    kind: 'transactions' | 'realized-lots';
    /** The header's columns as the broker writes them. */
    columns: {
      name: string;
      required: boolean;
    }[];
  }[];
  data_source: 'postgresql';
}

export interface ImportPreviewResponse {
  success: true;
  files: {
    file: string;
    broker: string | null;
    label: string | null;
    kind: 'transactions' | 'realized-lots' | null;
    rows: number | null;
    /** The account number the file carries; null: the account field, or the profile's. */
    account: string | null;
    /** Why the import would refuse this file. */
    error: string | null;
  }[];
  /** Why the import would refuse these files together (lots without their history …). */
  problem: string | null;
  data_source: 'postgresql';
}

export interface ImportStats {
  transactions_inserted: number;
  realized_gains_lots: number;
  broker_verified_trades: number;
}

/** A stored trade with its id and journal: the trade list, a day, a symbol. */
export interface JournaledTrade {
  /** Stable across re-imports of the same trade (docs/api.md "Trade list"). */
  id: string;
  symbol: string;
  side: 'long' | 'short';
  /** `broker`: from the realized-gains lots; `fifo`: matched by the service. */
  source: 'broker' | 'fifo';
  /** The opening buy of a long, the covering buy of a short. */
  buy_date: string;
  sell_date: string;
  /** The date the trade was closed: `sell_date` of a long, the cover date of a short. */
  close_date: string;
  open_date: string;
  buy_price: number;
  sell_price: number;
  /** Shares. */
  volume: number;
  profit_per_share: number;
  total_profit_loss: number;
  return_percentage: number;
  trade_result: 'Win' | 'Loss' | 'Breakeven';
  holding_days: number;
  cost_basis: number;
  proceeds: number;
  wash_sale: boolean | null;
  disallowed_loss: number | null;
  term: string | null;
  buy_tx_price: number | null;
  sell_tx_price: number | null;
  /** Its tags (docs/api.md "Journal"), as first written, by name. */
  tags: string[];
  /** Whether it has a note (`GET /api/trades/{id}/note`). */
  has_note: boolean;
}

export interface JournalOrphansResponse {
  success: true;
  orphans: {
    id: string;
    symbol: string;
    side: 'long' | 'short';
    open_date: string;
    close_date: string;
    volume: number;
    total_profit_loss: number;
    tags: string[];
    note: string | null;
  }[];
  count: number;
}

export interface Liveness {
  status: 'alive';
  /** UTC wall-clock time with microseconds and no zone suffix. */
  timestamp: string;
}

export interface MessageResponse {
  success: true;
  message: string;
}

export interface MonthResponse {
  success: true;
  summary: MonthSummary;
  trades: MonthTrade[];
  dividends: Dividend[];
  data_source: 'postgresql';
}

export interface MonthsResponse {
  success: true;
  /** Most recent month first. */
  months: {
    month: string;
    total_trades: number;
    winning_trades: number;
    win_rate: number;
    trading_profit_loss: number;
    total_dividends: number;
    total_return_with_dividends: number;
    dividend_count: number;
  }[];
  data_source: 'postgresql';
}

export interface MonthSummary {
  month: string;
  total_trades: number;
  winning_trades: number;
  win_rate: number;
  trading_profit_loss: number;
  total_dividends: number;
  total_return_with_dividends: number;
  dividend_count: number;
}

/** A trade in a month's listing: the fields the month page shows. */
export interface MonthTrade {
  symbol: string;
  side: 'long' | 'short';
  /** `broker`: from the realized-gains lots; `fifo`: matched by the service. */
  source: 'broker' | 'fifo';
  /** The opening buy of a long, the covering buy of a short. */
  buy_date: string;
  sell_date: string;
  /** The date the trade was closed: `sell_date` of a long, the cover date of a short. */
  close_date: string;
  buy_price: number;
  sell_price: number;
  /** Shares. */
  volume: number;
  total_profit_loss: number;
  return_percentage: number;
  trade_result: 'Win' | 'Loss' | 'Breakeven';
  holding_days: number;
  wash_sale: boolean | null;
}

export interface NoteDto {
  /** Plain text or Markdown, stored as given; an empty string deletes the note. */
  note: string;
}

export interface OrphanDiscardedResponse {
  success: true;
  id: string;
  message: string;
}

export interface PeriodMetrics {
  trading_profit_loss: number;
  total_dividends: number;
  total_trades: number;
  winning_trades: number;
  win_rate_percentage: number;
  dividend_count: number;
  /** Trading P&L plus dividends. */
  total_return: number;
}

export interface PortfolioSummaryResponse {
  success: true;
  totals: PortfolioTotals;
  manual: PortfolioTotals;
  imported: PortfolioTotals;
  pending_prices: number;
  held_twice: string[];
  data_source: 'postgresql';
}

export interface PortfolioTotals {
  /** Of the priced holdings: one without any known price is left out of value, cost and gain (`unpriced_count`). */
  total_value: number;
  total_cost: number;
  total_gain_loss: number;
  total_return_pct: number;
  holdings_count: number;
  unpriced_count: number;
}

export interface Position {
  symbol: string;
  side: 'long' | 'short';
  /** Negative for a short. */
  shares: number;
  /** Cost basis ÷ shares, fees included; a short: the proceeds per share. */
  average_cost: number;
  /** Negative for a short (the proceeds of its sale). */
  cost_basis: number;
  last_price: number | null;
  price_time: string | null;
  price_status: 'current' | 'stale' | 'pending' | 'unavailable';
  /** shares × last price; negative for a short. */
  market_value: number | null;
  /** market_value − cost_basis. */
  unrealized_profit_loss: number | null;
  unrealized_return_percentage: number | null;
  day_change: number | null;
  day_change_percentage: number | null;
  /** Percent of the priced positions' gross market value. */
  weight: number | null;
  lots: number;
  first_opened: string;
  last_opened: string;
  lot_source: 'broker' | 'fifo';
  source: 'import';
  /** A manual holding of the symbol exists too (kept apart). */
  also_manual: boolean;
}

export interface PositionDetailResponse {
  success: true;
  symbol: string;
  positions: Position[];
  count: number;
  pending_prices: number;
  unpriced_count: number;
  totals: PositionsTotals;
  lots: PositionLot[];
  data_source: 'postgresql';
}

export interface PositionLot {
  account: string;
  side: 'long' | 'short';
  open_date: string;
  shares: number;
  cost_basis: number;
  cost_per_share: number;
  price: number | null;
  source: 'broker' | 'fifo';
}

export interface PositionsResponse {
  success: true;
  positions: Position[];
  count: number;
  pending_prices: number;
  unpriced_count: number;
  totals: PositionsTotals;
  data_source: 'postgresql';
}

export interface PositionsTotals {
  market_value: number;
  cost_basis: number;
  unrealized_profit_loss: number;
  day_change: number;
}

export interface PriceData {
  current_price: number;
  change: number | null;
  percent_change: number | null;
  high: number | null;
  low: number | null;
  open: number | null;
  previous_close: number | null;
  quote_time: string | null;
  last_updated: string;
}

export interface PriceResponse {
  success: true;
  symbol: string;
  price_data: PriceData;
}

export interface Profile {
  email: string;
  name: string | null;
  brokerage_account: string | null;
  account_id: number | null;
  created_at: string;
  last_login: string | null;
}

export interface ProfileResponse {
  success: true;
  profile: Profile;
}

export interface Readiness {
  status: 'ready' | 'not ready';
  /** UTC wall-clock time with microseconds and no zone suffix. */
  timestamp: string;
  /** Not ready only: the kind of trouble (`database unavailable`, `shutting down`, …). */
  reason?: string;
}

export interface RefreshPricesResponse {
  success: true;
  updated_count: number;
  errors: {
    symbol: string;
    error: string;
  }[];
  message: string;
}

export interface RenameTagDto {
  /** The new name; when another tag has it (any case), the two merge. */
  name: string;
}

export interface Snapshot {
  id: number;
  snapshot_time: string;
  /** Of the priced holdings: one without any known price is left out of value, cost and gain (`unpriced_count`). */
  total_value: number;
  total_cost: number;
  total_gain_loss: number;
  total_return_pct: number;
  holdings_count: number;
  unpriced_count: number;
}

export interface SnapshotHistoryResponse {
  success: true;
  /** Newest first. */
  history: HistorySnapshot[];
}

export interface SnapshotResponse {
  success: true;
  snapshot: Snapshot;
}

export interface StatisticsFilters {
  all_time: boolean;
  start_date: string | null;
  end_date: string | null;
  symbols: string[] | null;
  side: 'long' | 'short' | null;
  /** The `tag` filters (lower-cased): a trade carries every one. */
  tags: string[] | null;
  /** `untagged=true`: only trades without tags. */
  untagged: boolean;
}

export interface StatisticsResponse {
  success: true;
  filters: StatisticsFilters;
  statistics: TradeStatistics;
  data_source: 'postgresql';
}

export interface SymbolDetailResponse {
  success: true;
  data: {
    symbol: string;
    company_name: string;
    summary: SymbolDetailSummary;
    trades: JournaledTrade[];
    dividends: Dividend[];
  };
  data_source: 'postgresql';
}

export interface SymbolDetailSummary {
  total_trades: number;
  trading_profit_loss: number;
  winning_trades: number;
  win_rate_percentage: number;
  avg_profit_loss: number;
  /** 0 without trades. */
  min_profit_loss: number;
  /** 0 without trades. */
  max_profit_loss: number;
  avg_return_percentage: number;
  /** 0 without trades. */
  min_return_pct: number;
  /** 0 without trades. */
  max_return_pct: number;
  avg_holding_days: number;
  total_volume: number;
  total_cost_basis: number;
  total_dividend_payments: number;
  total_dividends: number;
  avg_dividend_amount: number;
  total_return: number;
  first_trade_date: string | null;
  last_trade_date: string | null;
  first_open_date: string | null;
  first_dividend_date: string | null;
  last_dividend_date: string | null;
  current_shares_held: number;
  has_open_position: boolean;
  avg_return_pct: number;
}

export interface SymbolsResponse {
  success: true;
  symbols: {
    symbol: string;
    company_name: string;
  }[];
  data_source: 'postgresql';
}

export interface SymbolSummariesResponse {
  success: true;
  symbols: SymbolSummaryItem[];
  data_source: 'postgresql';
}

export interface SymbolSummaryItem {
  symbol: string;
  company_name: string;
  has_trades: boolean;
  total_trades: number;
  trading_profit_loss: number;
  winning_trades: number;
  win_rate_percentage: number;
  avg_profit_loss: number;
  min_profit_loss: number | null;
  max_profit_loss: number | null;
  avg_return_percentage: number;
  min_return_pct: number | null;
  max_return_pct: number | null;
  avg_holding_days: number;
  total_volume: number;
  total_cost_basis: number;
  total_dividend_payments: number;
  total_dividends: number;
  avg_dividend_amount: number;
  total_return: number;
  first_trade_date: string | null;
  last_trade_date: string | null;
  first_open_date: string | null;
  first_dividend_date: string | null;
  last_dividend_date: string | null;
  current_shares_held: number;
  has_open_position: boolean;
}

export type SymbolValidation = {
  valid: true;
  symbol: string;
  current_price: number;
  company_name: string | null;
  message: string;
} | {
  valid: false;
  symbol: string;
  error: string;
};

export interface TagChangedResponse {
  success: true;
  name: string;
  merged: boolean;
  message: string;
}

export interface TagDeletedResponse {
  success: true;
  name: string;
  trades_untagged: number;
  message: string;
}

export interface TagFigures {
  /** As first written. */
  name: string;
  total_trades: number;
  winning_trades: number;
  losing_trades: number;
  /** Winning ÷ total × 100; null without trades. */
  win_rate: number | null;
  gross_profit: number;
  gross_loss: number;
  net_profit_loss: number;
  /** Gross profit ÷ |gross loss|; null without a loss. */
  profit_factor: number | null;
  /** Net P&L ÷ trades; null without trades. */
  expectancy: number | null;
}

export interface TagImportResponse {
  success: true;
  /** Lines with content after the header. */
  lines: number;
  /** Lines whose trades were tagged. */
  matched: number;
  trades_tagged: number;
  /** Lines naming trades of several closing fills: nothing tagged. */
  ambiguous: number;
  /** Lines naming no trade, or unreadable. */
  unmatched: number;
  problems: {
    line: number;
    kind: 'ambiguous' | 'unmatched';
    reason: string;
  }[];
  message: string;
}

export interface TagSelectionDto {
  /** The trades' `id`s (from `/api/trades`, a day or a symbol); every one must be a trade of the user's. */
  trade_ids: string[];
  /** Tags each of the trades gets (those it carries already stay once). */
  add?: string[];
  /** Tags taken off each of the trades (a tag stays, also with no trade left carrying it). */
  remove?: string[];
}

export interface TagSelectionResponse {
  success: true;
  /** The trades named. */
  trades: number;
  added: {
    /** As stored. */
    name: string;
    /** The trades that did not carry it before. */
    trades: number;
  }[];
  removed: {
    name: string;
    /** The trades that carried it. */
    trades: number;
  }[];
  message: string;
}

export interface TagsResponse {
  success: true;
  tags: TagFigures[];
}

export interface TimeframeResponse {
  success: true;
  data: {
    summary: PeriodMetrics;
    weekly_summary: {
      week_start: string;
      period: string;
      trading_profit_loss: number;
      total_dividends: number;
      total_trades: number;
      winning_trades: number;
      win_rate_percentage: number;
      dividend_count: number;
      /** Trading P&L plus dividends. */
      total_return: number;
    }[];
    monthly_summary: {
      month_start: string;
      period: string;
      trading_profit_loss: number;
      total_dividends: number;
      total_trades: number;
      winning_trades: number;
      win_rate_percentage: number;
      dividend_count: number;
      /** Trading P&L plus dividends. */
      total_return: number;
    }[];
    open_positions: {
      symbol: string;
      shares: number;
      /** What the shares open at the range end cost (a short: minus its proceeds); null without imported lots. */
      cost_basis: number | null;
      /** The latest cached market price. */
      last_price: number | null;
      /** shares × last_price. */
      market_value: number | null;
      /** market_value − cost_basis. */
      unrealized_profit_loss: number | null;
    }[];
    all_time: boolean;
    start_date: string | null;
    end_date: string | null;
    symbols: string[] | null;
  };
  data_source: 'postgresql';
}

/** A completed trade with every field (`/api/trade-details`, symbols, days, the trade list). */
export interface Trade {
  symbol: string;
  side: 'long' | 'short';
  /** `broker`: from the realized-gains lots; `fifo`: matched by the service. */
  source: 'broker' | 'fifo';
  /** The opening buy of a long, the covering buy of a short. */
  buy_date: string;
  sell_date: string;
  /** The date the trade was closed: `sell_date` of a long, the cover date of a short. */
  close_date: string;
  open_date: string;
  buy_price: number;
  sell_price: number;
  /** Shares. */
  volume: number;
  profit_per_share: number;
  total_profit_loss: number;
  return_percentage: number;
  trade_result: 'Win' | 'Loss' | 'Breakeven';
  holding_days: number;
  cost_basis: number;
  proceeds: number;
  wash_sale: boolean | null;
  disallowed_loss: number | null;
  term: string | null;
  buy_tx_price: number | null;
  sell_tx_price: number | null;
}

export interface TradeDetailsResponse {
  success: true;
  month: string;
  trades: Trade[];
  data_source: 'postgresql';
}

export interface TradeListResponse {
  success: true;
  filters: {
    all_time: boolean;
    start_date: string | null;
    end_date: string | null;
    symbols: string[] | null;
    side: 'long' | 'short' | null;
    result: 'Win' | 'Loss' | 'Breakeven' | null;
    /** `broker`: from the realized-gains lots; `fifo`: matched by the service. */
    source: 'broker' | 'fifo' | null;
    min_holding_days: number | null;
    max_holding_days: number | null;
    /** The `tag` filters (lower-cased): a trade carries every one. */
    tags: string[] | null;
    /** `untagged=true`: only trades without tags. */
    untagged: boolean;
  };
  sort: string;
  order: 'asc' | 'desc';
  trades: JournaledTrade[];
  /** Null on the last page. */
  next_cursor: string | null;
  total_count: number;
  summary: {
    total_trades: number;
    net_profit_loss: number;
    win_rate: number;
  };
  data_source: 'postgresql';
}

export interface TradeNoteResponse {
  success: true;
  id: string;
  /** As written (plain text or Markdown); null when there is none. */
  note: string | null;
  updated_at: string | null;
}

export interface TradeStatistics {
  total_trades: number;
  winning_trades: number;
  losing_trades: number;
  breakeven_trades: number;
  win_rate: number | null;
  win_rate_excluding_breakeven: number | null;
  gross_profit: number;
  gross_loss: number;
  net_profit_loss: number;
  profit_factor: number | null;
  average_win: number | null;
  average_loss: number | null;
  payoff_ratio: number | null;
  expectancy: number | null;
  largest_win: {
    symbol: string;
    side: 'long' | 'short';
    open_date: string;
    close_date: string;
    total_profit_loss: number;
    return_percentage: number;
  } | null;
  largest_loss: {
    symbol: string;
    side: 'long' | 'short';
    open_date: string;
    close_date: string;
    total_profit_loss: number;
    return_percentage: number;
  } | null;
  average_holding_days_winners: number | null;
  average_holding_days_losers: number | null;
  trading_days: number;
  green_days: number;
  red_days: number;
  best_day: {
    date: string;
    profit_loss: number;
  } | null;
  worst_day: {
    date: string;
    profit_loss: number;
  } | null;
  average_daily_profit_loss: number | null;
  daily_profit_loss_std_dev: number | null;
  max_winning_day_streak: number;
  max_losing_day_streak: number;
  /** Positive: winning days in a row up to the last day; negative: losing days. */
  current_day_streak: number;
  max_drawdown: {
    amount: number;
    peak_date: string | null;
    trough_date: string | null;
    recovery_date: string | null;
  };
  by_side: {
    side: 'long' | 'short';
    total_trades: number;
    winning_trades: number;
    win_rate: number | null;
    net_profit_loss: number;
    average_profit_loss: number | null;
  }[];
  by_weekday: {
    weekday: string;
    total_trades: number;
    winning_trades: number;
    win_rate: number | null;
    net_profit_loss: number;
    average_profit_loss: number | null;
  }[];
  by_holding_period: {
    holding_period: string;
    total_trades: number;
    winning_trades: number;
    win_rate: number | null;
    net_profit_loss: number;
    average_profit_loss: number | null;
  }[];
  by_symbol: {
    winners: {
      symbol: string;
      total_trades: number;
      winning_trades: number;
      win_rate: number | null;
      net_profit_loss: number;
      average_profit_loss: number | null;
    }[];
    losers: {
      symbol: string;
      total_trades: number;
      winning_trades: number;
      win_rate: number | null;
      net_profit_loss: number;
      average_profit_loss: number | null;
    }[];
  };
  profit_loss_distribution: {
    from: number | null;
    to: number | null;
    trades: number;
  }[];
}

export interface TradeTagsDto {
  /** The trade's whole set of tags (replaces the previous one); `[]` removes them all. */
  tags: string[];
}

export interface TradeTagsResponse {
  success: true;
  id: string;
  tags: string[];
}

export interface TradingCalendarMetrics {
  /** New York local time, `YYYY-MM-DDTHH:mm:ss.SSSSSS`, no zone suffix. */
  current_time: string;
  market_status: 'open' | 'closed' | 'pre-market' | 'after-hours';
  market_open_time: string;
  market_close_time: string;
  is_trading_day: boolean;
  next_trading_day: string;
  trading_days_this_month: number;
  trading_days_this_year: number;
}

export interface TradingCalendarMetricsResponse {
  success: true;
  metrics: TradingCalendarMetrics;
}

export interface UpdateHoldingDto {
  /** At most 6 decimals. */
  shares?: number;
  /** At most 6 decimals. */
  average_cost?: number;
  /** An empty string clears the notes. */
  notes?: string;
  holding_type?: 'stock' | 'etf' | 'mutual_fund';
  /** Null clears it. */
  purchase_date?: string | null;
}

export interface UpdateProfileDto {
  /** The brokerage account number, as on the broker files. */
  brokerage_account: string;
}

/** The import failed and nothing of it was kept; also the body of a 400, 413, 429 or 503 refused before the stream starts. */
export interface UploadErrorLine {
  type: 'error';
  message: string;
  /** When `message` is a sentence of the contract (`Both files must be CSV files`): which file and why. */
  detail?: string;
}

export interface UploadHistoryEntry {
  transaction_filename: string;
  gains_filename: string;
  timestamp: string;
  transaction_file_size: number;
  gains_file_size: number;
  status: 'success' | 'failed';
  user_email: string;
  account_id: number;
  brokerage_account: string;
  transactions_processed: number;
  months_updated: number;
  transactions_inserted: number;
  realized_gains_lots: number;
  broker_verified_trades: number;
  error: string | null;
}

export interface UploadHistoryResponse {
  success: true;
  /** Newest first. */
  history: UploadHistoryEntry[];
  data_source: 'postgresql';
}

/** One line of the stream: progress lines, then one `success` or one `error` line. */
export type UploadLine = UploadProgressLine | UploadSuccessLine | UploadErrorLine;

export interface UploadProgressLine {
  type: 'progress';
  percentage: number;
  message: string;
}

export interface UploadSuccessLine {
  type: 'success';
  message: string;
  stats: ImportStats;
  /** Rows kept with a caveat, when there are any. */
  warnings?: string[];
  /** `POST /api/import` only: each file's broker and kind, detected from its content, the rows read and the account it went to. */
  detected?: {
    file: string;
    broker: string;
    kind: 'transactions' | 'realized-lots';
    rows: number;
    /** The brokerage account the file was imported into. */
    account: string;
  }[];
}

export interface ValueHistoryResponse {
  success: true;
  start_date: string | null;
  end_date: string | null;
  days: {
    date: string;
    value: number | null;
    cost_basis: number | null;
    unrealized_profit_loss: number | null;
    realized_profit_loss: number;
    dividends: number;
    cumulative_realized_profit_loss: number;
    cumulative_dividends: number;
  }[];
  data_source: 'postgresql';
}
