import { Injectable } from '@nestjs/common';
import { BrokerageAccounts } from '@app/auth';
import { CalendarReports, MonthlyReports, ReportScopes, TradeList, totalReturn, winRate, type ClosedTrade, type DividendPayment, type PeriodTotals } from '@app/trades';
import { NotFoundError, ValidationError } from '@app/shared';
import type { Decimal } from '@app/shared/domain';
import { EXPORT_FORMATS, type ExportDividend, type ExportDocument, type ExportFormat, type ExportTrade } from '../domain/export-document.js';
import { ExportGenerators, type GeneratedFile } from './export-generator.port.js';

export type Paper = 'A4' | 'LETTER';

/**
 * A day, a month or a filtered trade list as a file. The figures come from the same report use cases as the JSON
 * endpoints (`/api/day-details`, `/api/month/{month}`, `/api/trades`), as exact read models, so a file never
 * disagrees with the screen; the file's own presentation rounds them (as the screens do: money and percentages
 * to 2 places, prices to 4, shares to 6), whatever the JSON responses name their fields.
 */
@Injectable()
export class ExportReports {
  constructor(
    private readonly calendar: CalendarReports,
    private readonly monthly: MonthlyReports,
    private readonly tradeList: TradeList,
    private readonly accounts: BrokerageAccounts,
    private readonly generators: ExportGenerators,
    private readonly scopes: ReportScopes,
  ) {}

  /** `account`: one brokerage account's figures (all the user's when absent), as the reports take it. */
  async day(userId: number, format: unknown, date: unknown, paper: unknown, account?: unknown): Promise<GeneratedFile> {
    const chosen = parseFormat(format);
    if (date === undefined || date === '') throw new ValidationError('date is required (YYYY-MM-DD)');
    const report = await this.calendar.day(await this.scopes.of(userId, account), date);
    if (report.trades.length === 0) throw new NotFoundError('No trades found for this date');
    return this.generate(chosen, parsePaper(paper), {
      period: { kind: 'day', value: report.date },
      account: await this.accountShown(userId, account),
      summary: exportSummary(report.totals),
      trades: report.trades.map(exportTrade),
      dividends: report.dividends.map(exportDividend),
    });
  }

  async month(userId: number, format: unknown, month: unknown, paper: unknown, account?: unknown): Promise<GeneratedFile> {
    const chosen = parseFormat(format);
    if (month === undefined || month === '') throw new ValidationError('month is required (YYYY-MM)');
    const report = await this.monthly.monthInFull(await this.scopes.of(userId, account), month);
    if (report.trades.length === 0 && report.dividends.length === 0) throw new NotFoundError('No trading data found for this month');
    return this.generate(chosen, parsePaper(paper), {
      period: { kind: 'month', value: report.month },
      account: await this.accountShown(userId, account),
      summary: exportSummary(report.totals),
      trades: report.trades.map(exportTrade),
      dividends: report.dividends.map(exportDividend),
    });
  }

  /** The trades `/api/trades` lists for the same filters, every page, as CSV (no dividends). */
  async trades(userId: number, query: Record<string, unknown>): Promise<GeneratedFile> {
    const selected = await this.tradeList.selected(await this.scopes.of(userId, query.account), query);
    const total = selected.trades.length;
    return this.generate('csv', 'A4', {
      period: { kind: 'trades', value: selected.label },
      account: await this.accountShown(userId, query.account),
      summary: {
        totalTrades: total,
        winningTrades: selected.winningTrades,
        winRate: percent(winRate(selected.winningTrades, total)),
        tradingProfitLoss: money(selected.netProfitLoss),
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

  /** The account a file names: the one asked for, else the user's only one, else "All accounts". */
  private async accountShown(userId: number, account: unknown): Promise<string | null> {
    if (typeof account === 'string' && account.trim() !== '') return account.trim();
    const accounts = await this.accounts.listForUser(userId);
    if (accounts.length > 1) return 'All accounts';
    return accounts[0]?.accountNumber ?? null;
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

// A file's figures: rounded once, half away from zero, as on the screens.
const money = (value: Decimal): number => value.toNumber(2);
const percent = (value: Decimal): number => value.toNumber(2);
const price = (value: Decimal): number => value.toNumber(4);
const shares = (value: Decimal): number => value.toNumber(6);

function exportSummary(totals: PeriodTotals) {
  return {
    totalTrades: totals.tradeCount,
    winningTrades: totals.winningTrades,
    winRate: percent(winRate(totals.winningTrades, totals.tradeCount)),
    tradingProfitLoss: money(totals.tradingProfitLoss),
    totalDividends: money(totals.dividends),
    totalReturn: money(totalReturn(totals)),
  };
}

function exportTrade(trade: ClosedTrade): ExportTrade {
  return {
    symbol: trade.symbol,
    side: trade.side,
    source: trade.source,
    buyDate: trade.buyDate,
    sellDate: trade.sellDate,
    volume: shares(trade.volume),
    buyPrice: price(trade.buyPrice),
    sellPrice: price(trade.sellPrice),
    totalProfitLoss: money(trade.totalProfitLoss),
    returnPercentage: percent(trade.returnPercentage),
    tradeResult: trade.tradeResult,
  };
}

function exportDividend(dividend: DividendPayment): ExportDividend {
  return { transactionDate: dividend.transactionDate, symbol: dividend.symbol, action: dividend.action, amount: money(dividend.amount) };
}
