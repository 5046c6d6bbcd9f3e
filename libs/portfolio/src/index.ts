// The portfolio context: holdings, market prices, holdings CSV import and snapshots.
// Its public surface: the module, its TypeORM entities (for the composition root) and the market-data port.
import { HoldingOrmEntity } from './infrastructure/persistence/holding.orm-entity.js';
import { MarketQuoteOrmEntity } from './infrastructure/persistence/market-quote.orm-entity.js';
import { PortfolioSnapshotOrmEntity } from './infrastructure/persistence/portfolio-snapshot.orm-entity.js';

export { PortfolioModule } from './portfolio.module.js';
export { MarketDataProvider, type CompanyProfile, type Urgency } from './application/market-data-provider.port.js';
export type { Quote } from './domain/quote.js';
export {
  DuplicateHoldingError,
  HoldingNotFoundError,
  HoldingsFileError,
  MarketDataNotConfiguredError,
  MarketDataUnavailableError,
  SnapshotNotFoundError,
  SymbolNotFoundError,
} from './domain/portfolio.errors.js';

export const PORTFOLIO_ENTITIES = [HoldingOrmEntity, MarketQuoteOrmEntity, PortfolioSnapshotOrmEntity];
export { portfolioSchemas } from './http/portfolio.openapi.js';
