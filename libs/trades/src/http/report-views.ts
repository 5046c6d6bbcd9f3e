import { dataResponseText, JsonText } from '@app/shared';
import { Decimal, productInCents } from '@app/shared/domain';
import type { DayReport } from '../application/calendar-reports.service.js';
import type { MonthPage } from '../application/monthly-reports.service.js';
import type { SymbolDetail } from '../application/symbol-reports.service.js';
import type { TimeframeResult } from '../application/timeframe-report.service.js';
import type { SelectedTrades, TradeListResult } from '../application/trade-list.service.js';
import type { CalendarDay } from '../domain/calendar-month.js';
import { totalReturn, winRate, type PeriodTotals } from '../domain/period-totals.js';
import type { OpenPosition, DividendPayment, ClosedTrade, MonthTrade } from '../domain/closed-trade.js';
import type { SymbolSummary } from '../domain/symbol-summary.js';
import { NO_ANNOTATION, type TradeAnnotation } from '../domain/journal.js';

// The response shapes of the trading reports (../shared/spec/interface.md field names, snake_case), made
// by the controllers from the use cases' read models. Exact values are rounded here, once, half away
// from zero: money and percentages to 2 places, prices to 4, shares to 6.

const money = (value: Decimal): number => value.toNumber(2);
const percent = (value: Decimal): number => value.toNumber(2);
const price = (value: Decimal): number => value.toNumber(4);
const shares = (value: Decimal): number => value.toNumber(6);
const orNull = <T>(value: T | null, shown: (value: T) => number): number | null => (value === null ? null : shown(value));

export interface TradeView {
  symbol: string;
  side: string;
  source: string;
  buy_date: string;
  sell_date: string;
  close_date: string;
  open_date: string;
  buy_price: number;
  sell_price: number;
  volume: number;
  profit_per_share: number;
  total_profit_loss: number;
  return_percentage: number;
  trade_result: string;
  holding_days: number;
  cost_basis: number;
  proceeds: number;
  wash_sale: boolean | null;
  disallowed_loss: number | null;
  term: string | null;
  buy_tx_price: number | null;
  sell_tx_price: number | null;
}

/** The full trade (the contract's fields plus `side`, `source`, dates, cost and the broker's lot flags): every list but a month's. */
export function tradeView(trade: ClosedTrade): TradeView {
  return {
    symbol: trade.symbol,
    side: trade.side,
    source: trade.source,
    buy_date: trade.buyDate,
    sell_date: trade.sellDate,
    close_date: trade.closeDate,
    open_date: trade.openDate,
    buy_price: price(trade.buyPrice),
    sell_price: price(trade.sellPrice),
    volume: shares(trade.volume),
    profit_per_share: price(trade.profitPerShare),
    total_profit_loss: money(trade.totalProfitLoss),
    return_percentage: percent(trade.returnPercentage),
    trade_result: trade.tradeResult,
    holding_days: trade.holdingDays,
    cost_basis: money(trade.costBasis),
    proceeds: money(trade.proceeds),
    wash_sale: trade.washSale,
    disallowed_loss: orNull(trade.disallowedLoss, money),
    term: trade.term,
    buy_tx_price: orNull(trade.buyTxPrice, price),
    sell_tx_price: orNull(trade.sellTxPrice, price),
  };
}

/**
 * A trade in a month's listing (`/api/month/{month}`): the contract's fields plus `side`, `source`,
 * `close_date`, `holding_days` and `wash_sale`, what the month page shows. The broker's lot details,
 * costs and execution prices stay in `/api/trade-details/{month}` (the contract puts
 * `profit_per_share` there only): a month of ~850 trades is then 240 KB of JSON instead of 380 KB.
 */
export type MonthTradeView = Pick<
  TradeView,
  | 'symbol'
  | 'side'
  | 'source'
  | 'buy_date'
  | 'sell_date'
  | 'close_date'
  | 'buy_price'
  | 'sell_price'
  | 'volume'
  | 'total_profit_loss'
  | 'return_percentage'
  | 'trade_result'
  | 'holding_days'
  | 'wash_sale'
>;

export function monthTradeView(trade: MonthTrade): MonthTradeView {
  return {
    symbol: trade.symbol,
    side: trade.side,
    source: trade.source,
    buy_date: trade.buyDate,
    sell_date: trade.sellDate,
    close_date: trade.closeDate,
    buy_price: price(trade.buyPrice),
    sell_price: price(trade.sellPrice),
    volume: shares(trade.volume),
    total_profit_loss: money(trade.totalProfitLoss),
    return_percentage: percent(trade.returnPercentage),
    trade_result: trade.tradeResult,
    holding_days: trade.holdingDays,
    wash_sale: trade.washSale,
  };
}

export interface DividendView {
  transaction_date: string;
  symbol: string;
  action: string;
  amount: number;
}

export function dividendView(dividend: DividendPayment): DividendView {
  return { transaction_date: dividend.transactionDate, symbol: dividend.symbol, action: dividend.action, amount: money(dividend.amount) };
}

export interface MonthSummaryView {
  month: string;
  total_trades: number;
  winning_trades: number;
  win_rate: number;
  trading_profit_loss: number;
  total_dividends: number;
  total_return_with_dividends: number;
  dividend_count: number;
}

export function monthSummaryView(month: string, totals: PeriodTotals): MonthSummaryView {
  return {
    month,
    total_trades: totals.tradeCount,
    winning_trades: totals.winningTrades,
    win_rate: percent(winRate(totals.winningTrades, totals.tradeCount)),
    trading_profit_loss: money(totals.tradingProfitLoss),
    total_dividends: money(totals.dividends),
    total_return_with_dividends: money(totalReturn(totals)),
    dividend_count: totals.dividendCount,
  };
}

export interface PeriodView {
  trading_profit_loss: number;
  total_dividends: number;
  total_trades: number;
  winning_trades: number;
  win_rate_percentage: number;
  dividend_count: number;
  total_return: number;
}

/** The five timeframe metrics (plus the dividend count and trading P&L with dividends). */
export function periodView(totals: PeriodTotals): PeriodView {
  return {
    trading_profit_loss: money(totals.tradingProfitLoss),
    total_dividends: money(totals.dividends),
    total_trades: totals.tradeCount,
    winning_trades: totals.winningTrades,
    win_rate_percentage: percent(winRate(totals.winningTrades, totals.tradeCount)),
    dividend_count: totals.dividendCount,
    total_return: money(totalReturn(totals)),
  };
}

export interface OpenPositionView {
  symbol: string;
  shares: number;
  cost_basis: number | null;
  last_price: number | null;
  market_value: number | null;
  unrealized_profit_loss: number | null;
}

/** An open position at the range's end, valued at the latest cached price (docs/api.md "Positions"). */
export function openPositionView(position: OpenPosition): OpenPositionView {
  const value = position.lastPrice === null ? null : productInCents(position.shares, position.lastPrice);
  return {
    symbol: position.symbol,
    shares: shares(position.shares),
    cost_basis: position.costBasis === null ? null : position.costBasis.toNumber(2),
    last_price: position.lastPrice === null ? null : position.lastPrice.toNumber(4),
    market_value: value === null ? null : value.toNumber(2),
    unrealized_profit_loss: value === null || position.costBasis === null ? null : value.sub(position.costBasis.round(2)).toNumber(2),
  };
}

export interface CalendarDayView {
  date: string;
  day: number;
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

export function calendarDayView(day: CalendarDay): CalendarDayView {
  const { totals, week } = day;
  return {
    date: day.date,
    day: day.day,
    day_of_week: day.dayOfWeek,
    trade_count: totals.tradeCount,
    winning_trades: totals.winningTrades,
    trading_pnl: money(totals.tradingProfitLoss),
    dividend_count: totals.dividendCount,
    dividends: money(totals.dividends),
    total_pnl: money(totalReturn(totals)),
    has_activity: totals.tradeCount > 0 || totals.dividendCount > 0,
    week_start: day.weekStart,
    week_trade_count: week.tradeCount,
    week_winning_trades: week.winningTrades,
    week_trading_pnl: money(week.tradingProfitLoss),
    week_dividends: money(week.dividends),
    week_total_pnl: money(totalReturn(week)),
    week_win_rate: percent(winRate(week.winningTrades, week.tradeCount)),
  };
}

export interface DaySummaryView {
  date: string;
  total_trading_pnl: number;
  total_dividends: number;
  total_pnl: number;
  trade_count: number;
  dividend_count: number;
  winning_trades: number;
  win_rate: number;
}

export function daySummaryView(date: string, totals: PeriodTotals): DaySummaryView {
  return {
    date,
    total_trading_pnl: money(totals.tradingProfitLoss),
    total_dividends: money(totals.dividends),
    total_pnl: money(totalReturn(totals)),
    trade_count: totals.tradeCount,
    dividend_count: totals.dividendCount,
    winning_trades: totals.winningTrades,
    win_rate: percent(winRate(totals.winningTrades, totals.tradeCount)),
  };
}

/** A `/api/symbols/summary` item: the contract's fields plus the detail view's extremes (null without trades). */
export function symbolSummaryView(summary: SymbolSummary) {
  return {
    symbol: summary.symbol,
    company_name: summary.companyName ?? '',
    has_trades: summary.totalTrades > 0,
    total_trades: summary.totalTrades,
    trading_profit_loss: money(summary.tradingProfitLoss),
    winning_trades: summary.winningTrades,
    win_rate_percentage: percent(summary.winRate),
    avg_profit_loss: money(summary.avgProfitLoss),
    min_profit_loss: orNull(summary.minProfitLoss, money),
    max_profit_loss: orNull(summary.maxProfitLoss, money),
    avg_return_percentage: percent(summary.avgReturnPercentage),
    min_return_pct: orNull(summary.minReturnPercentage, percent),
    max_return_pct: orNull(summary.maxReturnPercentage, percent),
    avg_holding_days: summary.avgHoldingDays.toNumber(2),
    total_volume: shares(summary.totalVolume),
    total_cost_basis: money(summary.totalCostBasis),
    total_dividend_payments: summary.dividendCount,
    total_dividends: money(summary.totalDividends),
    avg_dividend_amount: money(summary.avgDividendAmount),
    total_return: money(summary.totalReturn),
    first_trade_date: summary.firstTradeDate,
    last_trade_date: summary.lastTradeDate,
    first_open_date: summary.firstOpenDate,
    first_dividend_date: summary.firstDividendDate,
    last_dividend_date: summary.lastDividendDate,
    current_shares_held: shares(summary.currentShares),
    has_open_position: !summary.currentShares.isZero(),
  };
}

/** The `summary` of `/api/symbols/<symbol>`: every figure a number (0 without trades), dates null when none. */
export function symbolDetailSummaryView(summary: SymbolSummary) {
  const zeroIfNone = (value: Decimal | null, shown: (value: Decimal) => number): number => (value === null ? 0 : shown(value));
  return {
    total_trades: summary.totalTrades,
    trading_profit_loss: money(summary.tradingProfitLoss),
    winning_trades: summary.winningTrades,
    win_rate_percentage: percent(summary.winRate),
    avg_profit_loss: money(summary.avgProfitLoss),
    min_profit_loss: zeroIfNone(summary.minProfitLoss, money),
    max_profit_loss: zeroIfNone(summary.maxProfitLoss, money),
    avg_return_pct: percent(summary.avgReturnPercentage),
    avg_return_percentage: percent(summary.avgReturnPercentage),
    min_return_pct: zeroIfNone(summary.minReturnPercentage, percent),
    max_return_pct: zeroIfNone(summary.maxReturnPercentage, percent),
    avg_holding_days: summary.avgHoldingDays.toNumber(2),
    total_volume: shares(summary.totalVolume),
    total_cost_basis: money(summary.totalCostBasis),
    first_trade_date: summary.firstTradeDate,
    last_trade_date: summary.lastTradeDate,
    first_open_date: summary.firstOpenDate,
    total_dividend_payments: summary.dividendCount,
    total_dividends: money(summary.totalDividends),
    avg_dividend_amount: money(summary.avgDividendAmount),
    first_dividend_date: summary.firstDividendDate,
    last_dividend_date: summary.lastDividendDate,
    total_return: money(summary.totalReturn),
    current_shares_held: shares(summary.currentShares),
    has_open_position: !summary.currentShares.isZero(),
  };
}

/** `/api/months`: the contract's two fields first, then the month's other summary figures. */
export function monthsView(months: readonly { month: string; totals: PeriodTotals }[]) {
  return {
    months: months.map(({ month, totals }) => {
      const { month: _month, total_return_with_dividends, ...rest } = monthSummaryView(month, totals);
      return { month, total_return_with_dividends, ...rest };
    }),
  };
}

/** `/api/month/{month}`: every trade with the fields a listing shows, as the response's JSON text (the trades come as text already: `MonthTradesJson`). */
export function monthView(page: MonthPage): JsonText {
  return dataResponseText({
    summary: monthSummaryView(page.month, page.totals),
    trades: new JsonText(page.tradesJson),
    dividends: page.dividends.map(dividendView),
  });
}

/** `/api/trade-details/{month}`: every field of every trade. */
export function tradeDetailsView(report: { month: string; trades: readonly ClosedTrade[] }) {
  return { month: report.month, trades: report.trades.map(tradeView) };
}

/** `/api/symbols`. */
export function symbolsView(summaries: readonly SymbolSummary[]) {
  return { symbols: summaries.map((summary) => ({ symbol: summary.symbol, company_name: summary.companyName ?? '' })) };
}

/** `/api/symbols/summary`. */
export function symbolSummariesView(summaries: readonly SymbolSummary[]) {
  return { symbols: summaries.map(symbolSummaryView) };
}

/** `/api/symbols/<symbol>`. */
export function symbolDetailView(detail: SymbolDetail, annotations: Annotations) {
  return {
    data: {
      symbol: detail.symbol,
      company_name: detail.summary.companyName ?? '',
      summary: symbolDetailSummaryView(detail.summary),
      trades: detail.trades.map((trade) => journaledTradeView(trade, annotations)),
      dividends: detail.dividends.map(dividendView),
    },
  };
}

export interface TimeframeView {
  summary: PeriodView;
  weekly_summary: ({ week_start: string; period: string } & PeriodView)[];
  monthly_summary: ({ month_start: string; period: string } & PeriodView)[];
  open_positions: OpenPositionView[];
  all_time: boolean;
  start_date: string | null;
  end_date: string | null;
  symbols: string[] | null;
}

/** `/api/timeframe-data` and `/api/timeframe`. */
export function timeframeView(result: TimeframeResult): { data: TimeframeView } {
  const { totals, selection } = result;
  return {
    data: {
      summary: periodView(totals.summary),
      weekly_summary: totals.weekly.map((week) => ({ week_start: week.weekStart, period: week.weekStart, ...periodView(week.totals) })),
      monthly_summary: totals.monthly.map((month) => ({ month_start: `${month.month}-01`, period: month.month, ...periodView(month.totals) })),
      open_positions: result.positions.map(openPositionView),
      all_time: selection.allTime,
      start_date: result.startDate,
      end_date: result.endDate,
      symbols: selection.symbols === null ? null : [...selection.symbols],
    },
  };
}

/** `/api/calendar-data`. */
export function calendarMonthView(month: { year: number; month: number; days: readonly CalendarDay[] }) {
  return { year: month.year, month: month.month, days: month.days.map(calendarDayView) };
}

/** A stored trade's journal entries, by its id (docs/api.md "Journal"). */
export type Annotations = ReadonlyMap<string, TradeAnnotation>;

export interface JournaledTradeView extends TradeView {
  id: string;
  tags: string[];
  has_note: boolean;
}

/** The ids of stored trades. */
export function idsOf(trades: readonly ClosedTrade[]): string[] {
  return trades.flatMap((trade) => (trade.id === undefined ? [] : [trade.id]));
}

/** A stored trade with its id, tags and note flag: the lists a trader annotates from (trades, a day, a symbol). */
export function journaledTradeView(trade: ClosedTrade, annotations: Annotations): JournaledTradeView {
  const id = trade.id ?? '';
  const annotation = annotations.get(id) ?? NO_ANNOTATION;
  return { id, ...tradeView(trade), tags: [...annotation.tags], has_note: annotation.hasNote };
}

/** `/api/day-details`. */
export function dayView(report: DayReport, annotations: Annotations) {
  return {
    date: report.date,
    trades: report.trades.map((trade) => journaledTradeView(trade, annotations)),
    dividends: report.dividends.map(dividendView),
    summary: daySummaryView(report.date, report.totals),
  };
}

export interface TradeListFiltersView {
  all_time: boolean;
  start_date: string | null;
  end_date: string | null;
  symbols: string[] | null;
  side: string | null;
  result: string | null;
  source: string | null;
  min_holding_days: number | null;
  max_holding_days: number | null;
  tags: string[] | null;
  untagged: boolean;
}

export interface TradeListView {
  filters: TradeListFiltersView;
  sort: string;
  order: string;
  trades: JournaledTradeView[];
  next_cursor: string | null;
  total_count: number;
  summary: { total_trades: number; net_profit_loss: number; win_rate: number };
}

/** `/api/trades`. */
export function tradeListView({ query, page, nextCursor }: TradeListResult, annotations: Annotations): TradeListView {
  const { selection } = query.filters;
  return {
    filters: {
      all_time: selection.allTime,
      start_date: selection.allTime ? null : selection.start,
      end_date: selection.allTime ? null : selection.end,
      symbols: selection.symbols === null ? null : [...selection.symbols],
      side: query.filters.side,
      result: query.filters.result,
      source: query.filters.source,
      min_holding_days: query.filters.minHoldingDays,
      max_holding_days: query.filters.maxHoldingDays,
      tags: query.filters.tags === null ? null : [...query.filters.tags],
      untagged: query.filters.untagged,
    },
    sort: query.sort,
    order: query.order,
    trades: page.trades.map((listed) => journaledTradeView({ ...listed.trade, id: listed.id }, annotations)),
    next_cursor: nextCursor,
    total_count: page.totalCount,
    summary: { total_trades: page.totalCount, net_profit_loss: money(page.netProfitLoss), win_rate: percent(winRate(page.winningTrades, page.totalCount)) },
  };
}

/** The summary of a selection of trades, as the trade list's CSV download states it. */
export function selectedTradesSummaryView(selected: SelectedTrades) {
  return {
    total_trades: selected.trades.length,
    winning_trades: selected.winningTrades,
    win_rate: percent(winRate(selected.winningTrades, selected.trades.length)),
    net_profit_loss: money(selected.netProfitLoss),
  };
}
