import { Injectable } from '@nestjs/common';
import { Decimal } from '@app/shared/domain';
import type { ClosedTrade } from '../domain/closed-trade.js';
import { encodeCursor, parseTradeFilters, parseTradeListQuery, selectionLabel, type TradeFilters, type TradeListPage, type TradeListQuery } from '../domain/trade-list.js';
import { TradeReports, type ReportScope } from './trade-reports.port.js';

/** A page of `/api/trades`: what was asked, the trades, and the cursor to the next page. */
export interface TradeListResult {
  readonly query: TradeListQuery;
  readonly page: TradeListPage;
  readonly nextCursor: string | null;
}

/** The trades a filter selects, for a file: a label of its period (`all`, `<start>_<end>`), every trade, their totals. */
export interface SelectedTrades {
  readonly label: string;
  readonly trades: readonly ClosedTrade[];
  readonly winningTrades: number;
  readonly netProfitLoss: Decimal;
}

/** `/api/trades` and the trades of its CSV download (docs/api.md "Trade list"). */
@Injectable()
export class TradeList {
  constructor(private readonly reports: TradeReports) {}

  async page(scope: ReportScope, query: Record<string, unknown>): Promise<TradeListResult> {
    const parsed = parseTradeListQuery(query);
    const page = await this.reports.tradeListPage(scope, parsed);
    return { query: parsed, page, nextCursor: page.next === null ? null : encodeCursor(page.next, parsed.sort, parsed.order) };
  }

  async selected(scope: ReportScope, query: Record<string, unknown>): Promise<SelectedTrades> {
    const filters: TradeFilters = parseTradeFilters(query);
    const trades = await this.reports.tradesMatching(scope, filters);
    return {
      label: selectionLabel(filters.selection),
      trades,
      winningTrades: trades.filter((trade) => trade.totalProfitLoss.isPositive()).length,
      netProfitLoss: Decimal.sum(trades.map((trade) => trade.totalProfitLoss)),
    };
  }
}
