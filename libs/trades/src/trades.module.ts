import { ReportScopes } from './http/report-scope.js';
import { Module } from '@nestjs/common';
import { CalendarModule } from '@app/calendar';
import { Database, DatabaseNotifications } from '@app/persistence';
import { CalendarReports } from './application/calendar-reports.service.js';
import { MonthlyReports } from './application/monthly-reports.service.js';
import { ReportVersions } from './application/report-versions.port.js';
import { StatisticsReport } from './application/statistics-report.service.js';
import { SymbolReports } from './application/symbol-reports.service.js';
import { TimeframeReport } from './application/timeframe-report.service.js';
import { TradeList } from './application/trade-list.service.js';
import { TradeReports } from './application/trade-reports.port.js';
import { CalendarReportsController } from './http/calendar-reports.controller.js';
import { MonthsController } from './http/months.controller.js';
import { ReportCacheInterceptor } from './http/report-cache.interceptor.js';
import { ReportResponseCache } from './http/report-response-cache.js';
import { StatisticsController } from './http/statistics.controller.js';
import { SymbolsController } from './http/symbols.controller.js';
import { TimeframeController } from './http/timeframe.controller.js';
import { TradeListController } from './http/trade-list.controller.js';
import { JournalController } from './http/journal.controller.js';
import { JournalService } from './application/journal.service.js';
import { TradeJournal } from './application/trade-journal.port.js';
import { SqlTradeJournal } from './infrastructure/persistence/sql-trade-journal.js';
import { ReportDataChanges } from './infrastructure/persistence/report-data-changes.js';
import { DatabaseReportVersions, InProcessReportVersions, NotifiedReportVersions } from './infrastructure/persistence/report-versions.adapters.js';
import { SqlTradeLedger } from './infrastructure/persistence/sql-trade-ledger.js';
import { TradeLedgerNotices } from './infrastructure/persistence/thread-trade-ledger.js';
import { TradeLedger } from './application/trade-ledger.port.js';
import { SqlTradeReports } from './infrastructure/persistence/sql-trade-reports.js';

/**
 * The trading reports: months, trades, symbols, timeframes, the calendar's month and day views, statistics, the
 * trade list (and, for the exports, the day and month reports and the trade list), and the journal: tags and
 * notes on trades and days (docs/api.md "Journal").
 * The import writes the data through `TradeLedger`, the only writer of the tables these read.
 */
@Module({
  // The calendar context: which day it is in New York.
  imports: [CalendarModule],
  controllers: [MonthsController, TimeframeController, SymbolsController, CalendarReportsController, StatisticsController, TradeListController, JournalController],
  providers: [
    { provide: TradeReports, useClass: SqlTradeReports },
    {
      // The embedded database belongs to this process alone: its changes are counted in memory.
      // A server may be shared by several instances: the version is read from it, and kept until it notifies a change.
      provide: ReportVersions,
      inject: [Database, DatabaseNotifications, ReportDataChanges],
      useFactory: (database: Database, notifications: DatabaseNotifications, changes: ReportDataChanges): ReportVersions =>
        database.kind === 'embedded'
          ? new InProcessReportVersions(changes)
          : new NotifiedReportVersions(new DatabaseReportVersions(database), notifications, changes),
    },
    ReportDataChanges,
    { provide: TradeLedger, useClass: SqlTradeLedger },
    TradeLedgerNotices,
    { provide: TradeJournal, useClass: SqlTradeJournal },
    JournalService,
    ReportResponseCache,
    ReportCacheInterceptor,
    MonthlyReports,
    TimeframeReport,
    StatisticsReport,
    TradeList,
    SymbolReports,
    CalendarReports,
    ReportScopes,
  ],
  exports: [ReportScopes, CalendarReports, MonthlyReports, TradeList, TradeLedger, TradeLedgerNotices, ReportResponseCache, ReportCacheInterceptor, ReportVersions],
})
export class TradesModule {}
