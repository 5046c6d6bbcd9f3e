import type { Database } from '@app/persistence';
import type { TradeLedger } from '../application/trade-ledger.port.js';
import { ReportDataChanges } from '../infrastructure/persistence/report-data-changes.js';
import { SqlTradeLedger } from '../infrastructure/persistence/sql-trade-ledger.js';

/** The real ledger on a database, outside the Nest container: for other contexts' real-database tests. */
export function sqlTradeLedgerOn(database: Database, changes = new ReportDataChanges()): TradeLedger {
  return new SqlTradeLedger(database, changes);
}
