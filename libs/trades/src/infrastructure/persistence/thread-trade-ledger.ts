import { Injectable } from '@nestjs/common';
import type { Database, ThreadDatabase, ThreadHandlers } from '@app/persistence';
import type { TradeLedger } from '../../application/trade-ledger.port.js';
import { ReportDataChanges } from './report-data-changes.js';
import { SqlTradeLedger } from './sql-trade-ledger.js';

const REPORT_DATA_CHANGED = 'report-data-changed';

/**
 * The ledger on an import's thread: its statements run on the main thread (`ThreadDatabase`, whose
 * members are all the adapter uses of a Database), and its news of committed report data is told to
 * the main thread, where the report caches and versions listen (`TradeLedgerNotices`).
 */
export function threadTradeLedger(database: ThreadDatabase): TradeLedger {
  const changes = new ReportDataChanges();
  changes.subscribe((userId) => database.tell(REPORT_DATA_CHANGED, userId));
  return new SqlTradeLedger(database as unknown as Database, changes);
}

/** The main thread's side of `threadTradeLedger`: the thread's news announced here. */
@Injectable()
export class TradeLedgerNotices {
  constructor(private readonly changes: ReportDataChanges) {}

  handlers(): NonNullable<ThreadHandlers['tells']> {
    return { [REPORT_DATA_CHANGED]: (userId: number) => this.changes.changed(userId) };
  }
}
