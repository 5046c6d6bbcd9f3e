import { CreateUsers1763700000000 } from './1763700000000-create-users.js';
import { CreateAuthTables1763720000000 } from './1763720000000-create-auth-tables.js';
import { CreateImportTables1763740000000 } from './1763740000000-create-import-tables.js';
import { CreatePortfolio1763750000000 } from './1763750000000-create-portfolio.js';
import { CreateTradeReportRollups1763760000000 } from './1763760000000-create-trade-report-rollups.js';
import { BulkTablesCleanedByStatement1763770000000 } from './1763770000000-bulk-tables-cleaned-by-statement.js';
import { NotifySharedRowChanges1763780000000 } from './1763780000000-notify-shared-row-changes.js';
import { CompactRawRowKeys1763790000000 } from './1763790000000-compact-raw-row-keys.js';
import { BulkTablesWithoutSurrogateKeys1763800000000 } from './1763800000000-bulk-tables-without-surrogate-keys.js';
import { IdentityProviderState1763810000000 } from './1763810000000-identity-provider-state.js';
import { TradeStatisticGroups1763820000000 } from './1763820000000-trade-statistic-groups.js';
import { TradeJournal1763830000000 } from './1763830000000-trade-journal.js';
import { TradeIdsWithProfitLoss1763835000000 } from './1763835000000-trade-ids-with-profit-loss.js';
import { TagFiguresWithoutJoins1763840000000 } from './1763840000000-tag-figures-without-joins.js';
import { OpenLots1763850000000 } from './1763850000000-open-lots.js';
import { TransactionsDayOrder1763860000000 } from './1763860000000-transactions-day-order.js';
import { SeveralBrokerageAccounts1763870000000 } from './1763870000000-several-brokerage-accounts.js';
import { IncrementalImports1763880000000 } from './1763880000000-incremental-imports.js';
import { SymbolsAndTradeIdsInByteOrder1763890000000 } from './1763890000000-symbols-and-trade-ids-in-byte-order.js';
import { DailySymbolTotalsByDay1763900000000 } from './1763900000000-daily-symbol-totals-by-day.js';
import { RawRowKeysByDay1763910000000 } from './1763910000000-raw-row-keys-by-day.js';
import { PositionHistoryByAccount1763920000000 } from './1763920000000-position-history-by-account.js';
import { ImportedDays1763930000000 } from './1763930000000-imported-days.js';
import { RawRowCellsAsText1763940000000 } from './1763940000000-raw-row-cells-as-text.js';
import { TradeIdsByHash1763950000000 } from './1763950000000-trade-ids-by-hash.js';
import { AccountRowsCleanedByStatement1763960000000 } from './1763960000000-account-rows-cleaned-by-statement.js';
import { ClosedTradesInReportOrder1763970000000 } from './1763970000000-closed-trades-in-report-order.js';
import { JournalOrphansMarked1763980000000 } from './1763980000000-journal-orphans-marked.js';
import { OpenLotsByBook1763990000000 } from './1763990000000-open-lots-by-book.js';

/** Every migration, oldest first. A new migration is added here as well as in its own file. */
export const MIGRATIONS = [
  CreateUsers1763700000000,
  CreateAuthTables1763720000000,
  CreateImportTables1763740000000,
  CreatePortfolio1763750000000,
  CreateTradeReportRollups1763760000000,
  BulkTablesCleanedByStatement1763770000000,
  NotifySharedRowChanges1763780000000,
  CompactRawRowKeys1763790000000,
  BulkTablesWithoutSurrogateKeys1763800000000,
  IdentityProviderState1763810000000,
  TradeStatisticGroups1763820000000,
  TradeJournal1763830000000,
  TradeIdsWithProfitLoss1763835000000,
  TagFiguresWithoutJoins1763840000000,
  OpenLots1763850000000,
  TransactionsDayOrder1763860000000,
  SeveralBrokerageAccounts1763870000000,
  IncrementalImports1763880000000,
  SymbolsAndTradeIdsInByteOrder1763890000000,
  DailySymbolTotalsByDay1763900000000,
  RawRowKeysByDay1763910000000,
  PositionHistoryByAccount1763920000000,
  ImportedDays1763930000000,
  RawRowCellsAsText1763940000000,
  TradeIdsByHash1763950000000,
  AccountRowsCleanedByStatement1763960000000,
  ClosedTradesInReportOrder1763970000000,
  JournalOrphansMarked1763980000000,
  OpenLotsByBook1763990000000,
];
