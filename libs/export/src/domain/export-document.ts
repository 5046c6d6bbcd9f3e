/**
 * What an export file holds, in the trader's words: the period, the summary block, the trades and
 * the dividends. Figures arrive rounded for display (money to the cent, percentages to two places),
 * from the same exact read models as the JSON reports, so a file and its JSON report never disagree.
 */
export const EXPORT_FORMATS = ['csv', 'excel', 'pdf'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportSummary {
  totalTrades: number;
  winningTrades: number;
  /** Percent number (66.67 = 66.67 %). */
  winRate: number;
  tradingProfitLoss: number;
  /** Null where the document lists trades only (a trade list). */
  totalDividends: number | null;
  /** Trading P&L plus dividends; null where the document lists trades only. */
  totalReturn: number | null;
}

export interface ExportTrade {
  symbol: string;
  side: string;
  source: string;
  buyDate: string;
  sellDate: string;
  volume: number;
  buyPrice: number;
  sellPrice: number;
  totalProfitLoss: number;
  returnPercentage: number;
  tradeResult: string;
}

export interface ExportDividend {
  transactionDate: string;
  symbol: string;
  action: string;
  amount: number;
}

export interface ExportPeriod {
  /** A calendar day, a month, or a filtered trade list (`/api/trades/export.csv`). */
  kind: 'day' | 'month' | 'trades';
  /** `YYYY-MM-DD` for a day, `YYYY-MM` for a month, `all` or `<start>_<end>` for a trade list. */
  value: string;
}

export interface ExportDocument {
  period: ExportPeriod;
  /** The brokerage account number, when the user has set one. */
  account: string | null;
  summary: ExportSummary;
  trades: ExportTrade[];
  /** Null where the document lists trades only. */
  dividends: ExportDividend[] | null;
}

export function exportTitle(document: ExportDocument): string {
  const { kind, value } = document.period;
  if (kind === 'trades') return value === 'all' ? 'Trades, all time' : `Trades closed ${value.replace('_', ' to ')}`;
  return kind === 'day' ? `Trading day ${value}` : `Trading month ${value}`;
}

/** `trading-<date or month>.<extension>` (../shared/spec/decisions.md §4); a trade list `trades-<all or start_end>.<extension>`. */
export function exportFileName(period: ExportPeriod, extension: string): string {
  return `${period.kind === 'trades' ? 'trades' : 'trading'}-${period.value}.${extension}`;
}

/** Column headings a person understands, shared by every format. */
export const TRADE_COLUMNS = [
  'Symbol',
  'Side',
  'Source',
  'Buy date',
  'Sell date',
  'Shares',
  'Buy price',
  'Sell price',
  'P&L',
  'Return %',
  'Result',
] as const;
export const DIVIDEND_COLUMNS = ['Date', 'Symbol', 'Action', 'Amount'] as const;

export function summaryRows(summary: ExportSummary): [string, number][] {
  const rows: [string, number | null][] = [
    ['Trades', summary.totalTrades],
    ['Winning trades', summary.winningTrades],
    ['Win rate %', summary.winRate],
    ['Trading P&L', summary.tradingProfitLoss],
    ['Dividends', summary.totalDividends],
    ['Total', summary.totalReturn],
  ];
  return rows.filter((row): row is [string, number] => row[1] !== null);
}

/**
 * The decimals one price column is written with: 2, or 4 when any of its prices needs more than 2
 * (prices come rounded to 4 places), so a column never mixes $44.273 with $73.72.
 */
export function priceDecimals(prices: readonly number[]): 2 | 4 {
  return prices.some((price) => Number(price.toFixed(2)) !== price) ? 4 : 2;
}

/** Each price column's decimals (`priceDecimals`) for a document's trades. */
export function priceColumnDecimals(trades: readonly ExportTrade[]): { buy: 2 | 4; sell: 2 | 4 } {
  return { buy: priceDecimals(trades.map((trade) => trade.buyPrice)), sell: priceDecimals(trades.map((trade) => trade.sellPrice)) };
}
