import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@app/shared/domain';
import { normaliseSymbol } from '../domain/report-dates.js';
import { summariseSymbols } from '../domain/symbol-summary.js';
import { dividendView, symbolDetailSummaryView, symbolSummaryView, tradeView } from './report-views.js';
import { TradeReports } from './trade-reports.port.js';

export const SYMBOL_NOT_FOUND = 'Symbol not found';

/** `/api/symbols`, `/api/symbols/summary`, `/api/symbols/<symbol>`. */
@Injectable()
export class SymbolReports {
  constructor(private readonly reports: TradeReports) {}

  /** Every symbol with trades, dividends or shares held, with its company name (from the transactions' Description). */
  async symbols(userId: number): Promise<{ symbols: { symbol: string; company_name: string }[] }> {
    const summaries = summariseSymbols(await this.reports.symbolTotals(userId));
    return { symbols: summaries.map((summary) => ({ symbol: summary.symbol, company_name: summary.companyName ?? '' })) };
  }

  async summaries(userId: number): Promise<{ symbols: ReturnType<typeof symbolSummaryView>[] }> {
    const summaries = summariseSymbols(await this.reports.symbolTotals(userId));
    return { symbols: summaries.map(symbolSummaryView) };
  }

  /** One symbol (any case): its summary, trades and dividends; 404 when the user has none of it. */
  async detail(userId: number, symbolText: string) {
    const symbol = normaliseSymbol(symbolText);
    const [summary] = symbol === '' ? [] : summariseSymbols(await this.reports.symbolTotals(userId, symbol));
    if (summary === undefined) throw new NotFoundError(SYMBOL_NOT_FOUND);
    const trades = await this.reports.tradesOfSymbol(userId, symbol);
    const dividends = await this.reports.dividendsOfSymbol(userId, symbol);
    return {
      data: {
        symbol,
        company_name: summary.companyName ?? '',
        summary: symbolDetailSummaryView(summary),
        trades: trades.map(tradeView),
        dividends: dividends.map(dividendView),
      },
    };
  }
}
