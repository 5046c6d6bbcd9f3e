import { Injectable } from '@nestjs/common';
import { Decimal } from '@app/shared/domain';
import { encodeCursor, parseTradeFilters, parseTradeListQuery, selectionLabel, type TradeFilters } from '../domain/trade-list.js';
import { tradeView, type TradeView } from './report-views.js';
import { TradeReports } from './trade-reports.port.js';

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
}

export interface TradeListView {
  filters: TradeListFiltersView;
  sort: string;
  order: string;
  trades: (TradeView & { id: string })[];
  next_cursor: string | null;
  total_count: number;
  summary: { total_trades: number; net_profit_loss: number; win_rate: number };
}

/** The trades a filter selects, for a file: a label of its period (`all`, `<start>_<end>`), every trade, their totals. */
export interface SelectedTrades {
  readonly label: string;
  readonly trades: TradeView[];
  readonly summary: { total_trades: number; winning_trades: number; win_rate: number; net_profit_loss: number };
}

/** `/api/trades` and the trades of its CSV download (docs/api.md "Trade list"). */
@Injectable()
export class TradeList {
  constructor(private readonly reports: TradeReports) {}

  async page(userId: number, query: Record<string, unknown>): Promise<TradeListView> {
    const parsed = parseTradeListQuery(query);
    const page = await this.reports.tradeListPage(userId, parsed);
    return {
      filters: filtersView(parsed.filters),
      sort: parsed.sort,
      order: parsed.order,
      trades: page.trades.map((listed) => ({ id: listed.id, ...tradeView(listed.trade) })),
      next_cursor: page.next === null ? null : encodeCursor(page.next, parsed.sort, parsed.order),
      total_count: page.totalCount,
      summary: { total_trades: page.totalCount, net_profit_loss: page.netProfitLoss.toNumber(2), win_rate: winRate(page.winningTrades, page.totalCount) },
    };
  }

  async selected(userId: number, query: Record<string, unknown>): Promise<SelectedTrades> {
    const filters = parseTradeFilters(query);
    const trades = await this.reports.tradesMatching(userId, filters);
    const winning = trades.filter((trade) => trade.totalProfitLoss.isPositive()).length;
    return {
      label: selectionLabel(filters.selection),
      trades: trades.map(tradeView),
      summary: {
        total_trades: trades.length,
        winning_trades: winning,
        win_rate: winRate(winning, trades.length),
        net_profit_loss: Decimal.sum(trades.map((trade) => trade.totalProfitLoss)).toNumber(2),
      },
    };
  }
}

/** Winning ÷ all × 100, 2 places; 0 without trades, as the contract's win rates. */
function winRate(winning: number, total: number): number {
  return total === 0 ? 0 : Decimal.of(winning).mulDiv(Decimal.HUNDRED, Decimal.of(total)).toNumber(2);
}

function filtersView(filters: TradeFilters): TradeListFiltersView {
  const { selection } = filters;
  return {
    all_time: selection.allTime,
    start_date: selection.allTime ? null : selection.start,
    end_date: selection.allTime ? null : selection.end,
    symbols: selection.symbols === null ? null : [...selection.symbols],
    side: filters.side,
    result: filters.result,
    source: filters.source,
    min_holding_days: filters.minHoldingDays,
    max_holding_days: filters.maxHoldingDays,
  };
}
