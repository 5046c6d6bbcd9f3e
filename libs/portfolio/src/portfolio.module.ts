import { Module } from '@nestjs/common';
import { CalendarModule } from '@app/calendar';
import { TradesModule } from '@app/trades';
import { EndOfDaySnapshots } from './application/end-of-day-snapshots.service.js';
import { Holdings } from './application/holdings.port.js';
import { HoldingsImportService } from './application/holdings-import.service.js';
import { HoldingsChanges } from './application/holdings-changes.js';
import { HoldingsService } from './application/holdings.service.js';
import { ImportedPositions } from './application/imported-positions.port.js';
import { PortfolioOverview } from './application/portfolio-overview.service.js';
import { PositionsService } from './application/positions.service.js';
import { MarketPrices } from './application/market-prices.service.js';
import { QuoteCache } from './application/quote-cache.port.js';
import { Snapshots } from './application/snapshots.port.js';
import { SnapshotsService } from './application/snapshots.service.js';
import { HoldingsUploadController } from './http/holdings-upload.controller.js';
import { PortfolioHoldingsController } from './http/portfolio-holdings.controller.js';
import { PortfolioPricesController } from './http/portfolio-prices.controller.js';
import { PortfolioSnapshotsController } from './http/portfolio-snapshots.controller.js';
import { PositionsController } from './http/positions.controller.js';
import { PositionsResponseCache } from './http/positions-response-cache.js';
import { MarketDataModule } from './infrastructure/finnhub/market-data.module.js';
import { SqlImportedPositions } from './infrastructure/persistence/sql-imported-positions.js';
import { TypeOrmHoldings } from './infrastructure/persistence/typeorm-holdings.repository.js';
import { TypeOrmQuoteCache } from './infrastructure/persistence/typeorm-quote-cache.repository.js';
import { TypeOrmSnapshots } from './infrastructure/persistence/typeorm-snapshots.repository.js';
import { EndOfDayScheduler } from './infrastructure/scheduling/end-of-day.scheduler.js';

/**
 * Holdings, the positions the imports leave open, market prices (Finnhub behind the `MarketDataProvider`
 * port), the holdings CSV import and snapshots. Needs `ScheduleModule.forRoot()` in the application for the end-of-day job.
 */
@Module({
  imports: [CalendarModule, MarketDataModule, TradesModule],
  controllers: [PortfolioHoldingsController, PortfolioPricesController, PortfolioSnapshotsController, HoldingsUploadController, PositionsController],
  providers: [
    { provide: Holdings, useClass: TypeOrmHoldings },
    { provide: QuoteCache, useClass: TypeOrmQuoteCache },
    { provide: Snapshots, useClass: TypeOrmSnapshots },
    { provide: ImportedPositions, useClass: SqlImportedPositions },
    MarketPrices,
    PositionsService,
    PortfolioOverview,
    PositionsResponseCache,
    HoldingsChanges,
    HoldingsService,
    HoldingsImportService,
    SnapshotsService,
    EndOfDaySnapshots,
    EndOfDayScheduler,
  ],
})
export class PortfolioModule {}
