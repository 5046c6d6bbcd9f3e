import { Injectable } from '@nestjs/common';
import { BrokerageAccounts } from '@app/auth';
import { CalendarReports, MonthlyReports, TradeList, type DividendView, type MonthTradeView } from '@app/trades';
import { NotFoundError, ValidationError } from '@app/shared';
import { EXPORT_FORMATS, type ExportDividend, type ExportDocument, type ExportFormat, type ExportTrade } from '../domain/export-document.js';
import { ExportGenerators, type GeneratedFile } from './export-generator.port.js';

export type Paper = 'A4' | 'LETTER';

/**
 * A day, a month or a filtered trade list as a file. The numbers come from the same report use cases as the JSON
 * endpoints (`/api/day-details`, `/api/month/{month}`), so a file never disagrees with the screen.
 */
@Injectable()
export class ExportReports {
  constructor(
    private readonly calendar: CalendarReports,
    private readonly monthly: MonthlyReports,
    private readonly tradeList: TradeList,
    private readonly accounts: BrokerageAccounts,
    private readonly generators: ExportGenerators,
  ) {}

  async day(userId: number, format: unknown, date: unknown, paper: unknown): Promise<GeneratedFile> {
    const chosen = parseFormat(format);
    if (date === undefined || date === '') throw new ValidationError('date is required (YYYY-MM-DD)');
    const report = await this.calendar.day(userId, date);
    if (report.trades.length === 0) throw new NotFoundError('No trades found for this date');
    const summary = report.summary;
    return this.generate(chosen, parsePaper(paper), {
      period: { kind: 'day', value: report.date },
      account: await this.accountNumber(userId),
      summary: {
        totalTrades: summary.trade_count,
        winningTrades: summary.winning_trades,
        winRate: summary.win_rate,
        tradingProfitLoss: summary.total_trading_pnl,
        totalDividends: summary.total_dividends,
        totalReturn: summary.total_pnl,
      },
      trades: report.trades.map(exportTrade),
      dividends: report.dividends.map(exportDividend),
    });
  }

  async month(userId: number, format: unknown, month: unknown, paper: unknown): Promise<GeneratedFile> {
    const chosen = parseFormat(format);
    if (month === undefined || month === '') throw new ValidationError('month is required (YYYY-MM)');
    const report = await this.monthly.month(userId, month);
    if (report.trades.length === 0 && report.dividends.length === 0) throw new NotFoundError('No trading data found for this month');
    const summary = report.summary;
    return this.generate(chosen, parsePaper(paper), {
      period: { kind: 'month', value: summary.month },
      account: await this.accountNumber(userId),
      summary: {
        totalTrades: summary.total_trades,
        winningTrades: summary.winning_trades,
        winRate: summary.win_rate,
        tradingProfitLoss: summary.trading_profit_loss,
        totalDividends: summary.total_dividends,
        totalReturn: summary.total_return_with_dividends,
      },
      trades: report.trades.map(exportTrade),
      dividends: report.dividends.map(exportDividend),
    });
  }

  /** The trades `/api/trades` lists for the same filters, every page, as CSV (no dividends). */
  async trades(userId: number, query: Record<string, unknown>): Promise<GeneratedFile> {
    const selected = await this.tradeList.selected(userId, query);
    const summary = selected.summary;
    return this.generate('csv', 'A4', {
      period: { kind: 'trades', value: selected.label },
      account: await this.accountNumber(userId),
      summary: {
        totalTrades: summary.total_trades,
        winningTrades: summary.winning_trades,
        winRate: summary.win_rate,
        tradingProfitLoss: summary.net_profit_loss,
        totalDividends: null,
        totalReturn: null,
      },
      trades: selected.trades.map(exportTrade),
      dividends: null,
    });
  }

  private generate(format: ExportFormat, paper: Paper, document: ExportDocument): Promise<GeneratedFile> {
    return this.generators.forFormat(format).generate(document, { paper });
  }

  private async accountNumber(userId: number): Promise<string | null> {
    return (await this.accounts.findForUser(userId))?.accountNumber ?? null;
  }
}

function parseFormat(format: unknown): ExportFormat {
  if (typeof format === 'string' && (EXPORT_FORMATS as readonly string[]).includes(format)) return format as ExportFormat;
  throw new ValidationError(`Unknown export format '${String(format)}'. Use csv, excel or pdf`);
}

function parsePaper(paper: unknown): Paper {
  if (paper === undefined || paper === '') return 'A4';
  if (typeof paper === 'string' && ['a4', 'letter'].includes(paper.toLowerCase())) return paper.toUpperCase() as Paper;
  throw new ValidationError(`Unknown paper size '${String(paper)}'. Use a4 or letter`);
}

/** The fields a file shows; a month's listing and a day's full trades both have them. */
function exportTrade(trade: MonthTradeView): ExportTrade {
  return {
    symbol: trade.symbol,
    side: trade.side,
    source: trade.source,
    buyDate: trade.buy_date,
    sellDate: trade.sell_date,
    volume: trade.volume,
    buyPrice: trade.buy_price,
    sellPrice: trade.sell_price,
    totalProfitLoss: trade.total_profit_loss,
    returnPercentage: trade.return_percentage,
    tradeResult: trade.trade_result,
  };
}

function exportDividend(dividend: DividendView): ExportDividend {
  return { transactionDate: dividend.transaction_date, symbol: dividend.symbol, action: dividend.action, amount: dividend.amount };
}
