// The JSON shapes of the public API (../shared/spec/interface.md; extras from docs/api.md are optional).

export interface Profile {
  email: string;
  name: string | null;
  brokerage_account: string | null;
  account_id: number | null;
  created_at: string;
  last_login: string;
}

export interface MarketMetrics {
  current_time: string;
  market_status: 'open' | 'closed' | 'pre-market' | 'after-hours';
  market_open_time: string;
  market_close_time: string;
  is_trading_day: boolean;
  next_trading_day: string;
  trading_days_this_month: number;
  trading_days_this_year: number;
}

export interface Trade {
  symbol?: string;
  buy_date: string;
  sell_date: string;
  buy_price: number;
  sell_price: number;
  volume: number;
  profit_per_share?: number;
  total_profit_loss: number;
  return_percentage: number;
  trade_result: string;
  holding_days?: number;
  /** `broker` (from the realized-gains lots) or `fifo` (matched by the service). */
  source?: string;
  side?: string;
  close_date?: string;
  wash_sale?: boolean | null;
}

export interface Dividend {
  transaction_date: string;
  symbol?: string;
  action: string;
  amount: number;
}

export interface MonthListItem {
  month: string;
  total_return_with_dividends: number;
}

export interface MonthSummary {
  month: string;
  total_trades: number;
  winning_trades: number;
  win_rate: number;
  trading_profit_loss: number;
  total_dividends: number;
  total_return_with_dividends: number;
}

export interface MonthsResponse {
  months: MonthListItem[];
}

export interface MonthResponse {
  summary: MonthSummary;
  trades: Trade[];
  dividends: Dividend[];
}

export interface SymbolListItem {
  symbol: string;
  company_name: string;
}

export interface SymbolSummaryItem {
  symbol: string;
  company_name?: string;
  total_trades: number;
  trading_profit_loss: number;
  winning_trades: number;
  win_rate_percentage: number;
  avg_profit_loss: number;
  avg_return_percentage: number;
  total_volume: number;
  total_dividend_payments: number;
  total_dividends: number;
  total_return: number;
  first_trade_date: string | null;
  last_trade_date: string | null;
  first_dividend_date: string | null;
  last_dividend_date: string | null;
  current_shares_held: number;
  has_open_position: boolean;
}

export interface SymbolDetailSummary {
  total_trades: number;
  trading_profit_loss: number;
  winning_trades: number;
  win_rate_percentage: number;
  avg_profit_loss: number;
  min_profit_loss: number | null;
  max_profit_loss: number | null;
  avg_return_pct: number;
  min_return_pct: number | null;
  max_return_pct: number | null;
  avg_holding_days: number;
  total_volume: number;
  total_cost_basis: number;
  first_trade_date: string | null;
  last_trade_date: string | null;
  total_dividend_payments: number;
  total_dividends: number;
  avg_dividend_amount: number;
  first_dividend_date: string | null;
  last_dividend_date: string | null;
  total_return: number;
  current_shares_held: number;
}

export interface SymbolDetailResponse {
  data: {
    symbol: string;
    company_name?: string;
    summary: SymbolDetailSummary;
    trades: Trade[];
    dividends: Dividend[];
  };
}

export interface PeriodMetrics {
  trading_profit_loss: number;
  total_dividends: number;
  total_trades: number;
  winning_trades: number;
  win_rate_percentage: number;
  /** Trading P&L plus dividends (beyond the contract). */
  total_return?: number;
}

export interface WeekPeriod extends PeriodMetrics {
  week_start: string;
  period: string;
}

export interface MonthPeriod extends PeriodMetrics {
  month_start: string;
  period: string;
}

export interface OpenPosition {
  symbol: string;
  shares: number;
}

export interface TimeframeResponse {
  data: {
    summary: PeriodMetrics;
    weekly_summary: WeekPeriod[];
    monthly_summary: MonthPeriod[];
    open_positions: OpenPosition[];
  };
}

export interface CalendarDay {
  date: string;
  day: number;
  day_of_week: number;
  trade_count: number;
  trading_pnl: number;
  dividend_count: number;
  dividends: number;
  total_pnl: number;
  has_activity: boolean;
  week_trade_count: number;
  week_winning_trades: number;
  week_total_pnl: number;
  week_win_rate: number;
  week_start?: string;
}

export interface CalendarResponse {
  year: number;
  month: number;
  days: CalendarDay[];
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

export interface DayDetailsResponse {
  date: string;
  trades: Trade[];
  dividends: Dividend[];
  summary: DaySummary;
}

export interface UploadHistoryEntry {
  transaction_filename: string;
  gains_filename: string;
  timestamp: string;
  transaction_file_size: number;
  gains_file_size: number;
  status: string;
  user_email: string;
  account_id: number;
  brokerage_account: string;
  transactions_processed: number;
  months_updated: number;
  error?: string | null;
}

export interface ImportStats {
  transactions_inserted: number;
  realized_gains_lots: number;
  broker_verified_trades: number;
}

export type UploadMessage =
  | { type: 'progress'; percentage: number; message: string }
  | { type: 'success'; message: string; stats: ImportStats; warnings?: string[] }
  | { type: 'error'; message: string };

export type HoldingType = 'stock' | 'etf' | 'mutual_fund';

export interface Holding {
  id: number;
  symbol: string;
  holding_type: HoldingType;
  shares: number;
  average_cost: number;
  current_price: number | null;
  total_cost: number;
  current_value: number | null;
  gain_loss: number | null;
  return_percentage: number | null;
  last_updated: string | null;
  notes?: string;
  price_stale?: boolean;
}

export interface RefreshPricesResponse {
  success: boolean;
  updated_count: number;
  errors?: { symbol: string; error: string }[];
  message: string;
}

export interface HoldingsUploadResponse {
  success: boolean;
  imported: number;
  updated: number;
  errors: string[];
  message: string;
}

export type SnapshotType = 'MANUAL' | 'AUTOMATIC' | 'EOD';

/** A portfolio's totals as the server sums them (a holding without a price counts at its cost). */
export interface PortfolioTotals {
  total_value: number;
  total_cost: number;
  total_gain_loss: number;
  total_return_pct: number;
  holdings_count: number;
  unpriced_count: number;
}

/** `GET /api/portfolio/holdings`. */
export interface HoldingsResponse {
  holdings: Holding[];
  totals: PortfolioTotals;
}

export interface Snapshot extends Omit<PortfolioTotals, 'unpriced_count'> {
  id: number;
  snapshot_time: string;
  unpriced_count?: number;
  snapshot_type?: SnapshotType;
  notes?: string;
}

/** `/api/statistics` (docs/api.md "Statistics"). */
export interface StatisticsFilters {
  all_time: boolean;
  start_date: string | null;
  end_date: string | null;
  symbols: string[] | null;
  side: 'long' | 'short' | null;
}

export interface BreakdownRow {
  total_trades: number;
  winning_trades: number;
  win_rate: number | null;
  net_profit_loss: number;
  average_profit_loss: number | null;
}

export interface ExtremeTrade {
  symbol: string;
  side: string;
  open_date: string;
  close_date: string;
  total_profit_loss: number;
  return_percentage: number;
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
  largest_win: ExtremeTrade | null;
  largest_loss: ExtremeTrade | null;
  average_holding_days_winners: number | null;
  average_holding_days_losers: number | null;
  trading_days: number;
  green_days: number;
  red_days: number;
  best_day: { date: string; profit_loss: number } | null;
  worst_day: { date: string; profit_loss: number } | null;
  average_daily_profit_loss: number | null;
  daily_profit_loss_std_dev: number | null;
  max_winning_day_streak: number;
  max_losing_day_streak: number;
  current_day_streak: number;
  max_drawdown: { amount: number; peak_date: string | null; trough_date: string | null; recovery_date: string | null };
  by_side: (BreakdownRow & { side: string })[];
  by_weekday: (BreakdownRow & { weekday: string })[];
  by_holding_period: (BreakdownRow & { holding_period: string })[];
  by_symbol: { winners: (BreakdownRow & { symbol: string })[]; losers: (BreakdownRow & { symbol: string })[] };
  profit_loss_distribution: { from: number | null; to: number | null; trades: number }[];
}

export interface StatisticsResponse {
  filters: StatisticsFilters;
  statistics: TradeStatistics;
}

export interface EquityPoint {
  date: string;
  trading_profit_loss: number;
  dividends: number;
  cumulative_trading_profit_loss: number;
  cumulative_total_return: number;
  drawdown: number;
}

export interface EquityCurveResponse {
  filters: StatisticsFilters;
  points: EquityPoint[];
}

/** `/api/trades` (docs/api.md "Trade list"). */
export interface ListedTrade extends Trade {
  id: string;
  symbol: string;
  side: string;
  source: string;
  open_date: string;
  close_date: string;
  holding_days: number;
}

export interface TradeListResponse {
  trades: ListedTrade[];
  next_cursor: string | null;
  total_count: number;
  summary: { total_trades: number; net_profit_loss: number; win_rate: number };
  sort: string;
  order: 'asc' | 'desc';
}
