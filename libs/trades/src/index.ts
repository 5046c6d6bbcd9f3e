// The trades context: the ledger of completed trades, dividends and positions (written through
// `TradeLedger`, its model in `@app/trades/domain`) and the trading reports read from it (months, trades,
// symbols, timeframes, statistics, the calendar's trading figures). Other contexts import only these two,
// and an import's thread the ledger alone (`@app/trades/ledger`).
export { TradesModule } from './trades.module.js';
export { CalendarReports } from './application/calendar-reports.service.js';
export { MonthlyReports } from './application/monthly-reports.service.js';
export { TradeList, type SelectedTrades } from './application/trade-list.service.js';
export type { DayReport } from './application/calendar-reports.service.js';
export type { MonthReport } from './application/monthly-reports.service.js';
export type { ClosedTrade, DividendPayment } from './domain/closed-trade.js';
export { totalReturn, winRate, type PeriodTotals } from './domain/period-totals.js';
export { cachedReportBody, ReportCacheInterceptor } from './http/report-cache.interceptor.js';
export { ApiAccountFilter, ReportScopes } from './http/report-scope.js';
export type { ReportScope } from './application/trade-reports.port.js';
export { CachedReport } from './http/report-response-cache.js';
export { ReportVersions } from './application/report-versions.port.js';
export * from './ledger.js';
export { sqlTradeLedgerOn } from './testing/sql-trade-ledger.js';
export { TradeLedgerNotices } from './infrastructure/persistence/thread-trade-ledger.js';
export { ApiTradeListFilters, journalSchemas, tradesSchemas } from './http/trades.openapi.js';
