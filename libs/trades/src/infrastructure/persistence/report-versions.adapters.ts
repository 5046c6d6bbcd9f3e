import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Database, NotifiedCache, type NotificationSource } from '@app/persistence';
import { ReportVersions } from '../../application/report-versions.port.js';
import type { ReportDataChanges } from './report-data-changes.js';

/**
 * For a PostgreSQL server (several instances may share it): the version is the user's row in
 * `report_versions`, raised in the import's transaction. One primary-key read; the service reads it
 * through `NotifiedReportVersions`, so only when its copy is missing or may be stale.
 */
@Injectable()
export class DatabaseReportVersions extends ReportVersions {
  constructor(private readonly database: Database) {
    super();
  }

  async current(userId: number): Promise<number> {
    const rows = (await this.database.manager.query(`SELECT version::text AS version FROM report_versions WHERE user_id = $1`, [userId])) as {
      version: string;
    }[];
    return rows.length === 0 ? 0 : Number(rows[0].version);
  }
}

/** Channel the `report_versions` trigger notifies, with the user's id (see its migration). */
export const REPORT_VERSION_CHANGES = 'report_version_changes';

/**
 * For a PostgreSQL server, without a read per request: the versions read from the database are kept
 * in process, and a trigger on `report_versions` notifies every instance when one changes (after the
 * import's commit), so each forgets that user's version. An import this process runs holds the
 * user's version out of the copy from its commit until that notification arrives, so the importer
 * reads its own data at once. While notifications are down, every request reads the database.
 */
export class NotifiedReportVersions extends ReportVersions implements OnModuleDestroy {
  private readonly cache: NotifiedCache<number>;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly stored: ReportVersions,
    notifications: NotificationSource,
    changes: ReportDataChanges,
  ) {
    super();
    this.cache = new NotifiedCache(notifications, REPORT_VERSION_CHANGES, 100_000);
    this.unsubscribe = changes.subscribe((userId) => this.cache.hold(String(userId)));
  }

  async current(userId: number): Promise<number> {
    return (await this.cache.read(String(userId), () => this.stored.current(userId))) ?? 0;
  }

  onModuleDestroy(): void {
    this.unsubscribe();
  }
}

/**
 * For the embedded database, which only this process can reach: versions are counted here, raised
 * after every committed change of the ledger, with no database read at all. A process-wide counter
 * keeps them strictly increasing. Raised only after the commit, so a report that reads the new
 * version can see the new data, on any connection (a rolled-back import raises nothing).
 */
export class InProcessReportVersions extends ReportVersions implements OnModuleDestroy {
  private readonly versions = new Map<number, number>();
  private counter = 0;
  private readonly unsubscribe: () => void;

  constructor(changes: ReportDataChanges) {
    super();
    this.unsubscribe = changes.subscribe((userId) => {
      this.counter += 1;
      this.versions.set(userId, this.counter);
    });
  }

  current(userId: number): Promise<number> {
    return Promise.resolve(this.versions.get(userId) ?? 0);
  }

  onModuleDestroy(): void {
    this.unsubscribe();
  }
}
