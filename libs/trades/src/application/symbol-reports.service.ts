import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@app/shared/domain';
import type { ClosedTrade, DividendPayment } from '../domain/closed-trade.js';
import { normaliseSymbol } from '../domain/report-dates.js';
import { summariseSymbols, type SymbolSummary } from '../domain/symbol-summary.js';
import { TradeReports, type ReportScope } from './trade-reports.port.js';

export const SYMBOL_NOT_FOUND = 'Symbol not found';

/** One symbol: its summary, trades and dividends. */
export interface SymbolDetail {
  readonly symbol: string;
  readonly summary: SymbolSummary;
  readonly trades: readonly ClosedTrade[];
  readonly dividends: readonly DividendPayment[];
}

/** `/api/symbols`, `/api/symbols/summary`, `/api/symbols/<symbol>`. */
@Injectable()
export class SymbolReports {
  constructor(private readonly reports: TradeReports) {}

  /** Every symbol with trades, dividends or shares held, with its figures and company name. */
  async summaries(scope: ReportScope): Promise<SymbolSummary[]> {
    return summariseSymbols(await this.reports.symbolTotals(scope));
  }

  /** One symbol (any case); 404 when the user has none of it. */
  async detail(scope: ReportScope, symbolText: string): Promise<SymbolDetail> {
    const symbol = normaliseSymbol(symbolText);
    const [summary] = symbol === '' ? [] : summariseSymbols(await this.reports.symbolTotals(scope, symbol));
    if (summary === undefined) throw new NotFoundError(SYMBOL_NOT_FOUND);
    const trades = await this.reports.tradesOfSymbol(scope, symbol);
    const dividends = await this.reports.dividendsOfSymbol(scope, symbol);
    return { symbol, summary, trades, dividends };
  }
}
