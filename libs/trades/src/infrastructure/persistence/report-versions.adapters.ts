import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Database } from '@app/persistence';
import { ReportVersions } from '../../application/report-versions.port.js';
import { REPORT_DATA_CHANGES, type ReportDataChanges } from './report-data-changes.js';

/**
 * For a PostgreSQL server (several instances may share it): the version is the user's row in
 * `report_versions`, raised in the import's transaction. One primary-key read per request.
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

/**
 * For the embedded database, which only this process can reach: versions are counted here, raised
 * by every rollup rebuild, with no database read at all. A process-wide counter (never the database's
 * number, which a rolled-back import would hand out twice) keeps them strictly increasing.
 * The rebuild raises the version inside the import's transaction, before the commit; that is safe
 * because the embedded database is one session (a pool of one connection): a report that reads the
 * new version cannot run its queries until that transaction has ended.
 */
export class InProcessReportVersions extends ReportVersions implements OnModuleDestroy {
  private readonly versions = new Map<number, number>();
  private counter = 0;
  private readonly unsubscribe: () => void;

  constructor(changes: ReportDataChanges = REPORT_DATA_CHANGES) {
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
