// The trades context: the trading reports (months, trades, symbols, timeframes, the calendar's
// trading figures), read from what the import stores. Other contexts import only this file.
export { TradesModule } from './trades.module.js';
export { CalendarReports } from './application/calendar-reports.service.js';
export { MonthlyReports } from './application/monthly-reports.service.js';
export { TradeList, type SelectedTrades } from './application/trade-list.service.js';
export type { CalendarDayView, DaySummaryView, DividendView, MonthSummaryView, MonthTradeView, TradeView } from './application/report-views.js';
export { ReportCacheInterceptor } from './http/report-cache.interceptor.js';
export { refreshTradeReports } from './infrastructure/persistence/report-rollups.js';
