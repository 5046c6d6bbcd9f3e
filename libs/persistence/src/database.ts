import { AsyncLocalStorage } from 'node:async_hooks';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource, EntityManager, MixedList, type EntitySchema, type QueryRunner } from 'typeorm';
import { AppConfig, DatabaseUnavailableError } from '@app/shared';
import type { CopyJob, CopyTextJob } from './bulk-copy.js';
import type { SqlRow } from './sql-row.js';
import { EngineBulkWriter, StreamingBulkWriter, type BulkWriter } from './bulk-writers.js';
import { EmbeddedPostgres, type Schema } from './embedded-postgres.js';

export interface PersistenceOptions {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: Function[];
}

export const PERSISTENCE_OPTIONS = Symbol('PERSISTENCE_OPTIONS');

const RETRY_DELAY_MS = 2000;
const CONNECT_TIMEOUT_MS = 5000;
/**
 * The embedded database's one connection is shared by everyone: a request waits for it while an
 * import holds it (seconds for a large one), which is a queue, not an outage.
 */
const EMBEDDED_CONNECTION_WAIT_MS = 120_000;
/** Where TypeORM records the migrations applied (the service's start and the embedded templates alike). */
const MIGRATIONS_TABLE = 'migrations';
/** Serialises migrations when several instances start at once against one server. */
const MIGRATION_LOCK_KEY = 7_284_196_530_112;

/** The transaction a unit of work runs in, the copies it has started, and what to announce once it has committed. */
interface TransactionScope {
  readonly manager: EntityManager;
  readonly committed: (() => void)[];
  readonly copies: Promise<CopyOutcome>[];
  /** Tables written to, the columns whose statistics to refresh after the commit and the rows written. */
  readonly statistics: Map<string, TableWrites>;
}

type CopyOutcome = { ok: true } | { ok: false; error: unknown };

/** What a unit of work wrote to a table: the columns whose statistics matter, and how many rows. */
interface TableWrites {
  readonly columns: Set<string>;
  rows: number;
}

/**
 * A table's statistics are refreshed after a unit of work that wrote at least this many rows to it, and
 * at least `STATISTICS_STALE_SHARE` of the rows they counted: the rule of a server's autovacuum (a
 * threshold and a scale factor), which the embedded engine does not run.
 */
const STATISTICS_MIN_ROWS = 2_000;
const STATISTICS_STALE_SHARE = 0.1;

const PLAIN_IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** `ANALYZE table (columns)`, the names checked (they come from code, never from input). */
function analyzeStatement(table: string, columns: readonly string[]): string {
  for (const name of [table, ...columns]) {
    if (!PLAIN_IDENTIFIER.test(name)) throw new Error(`not a plain SQL identifier: ${name}`);
  }
  return `ANALYZE ${table} (${columns.join(', ')})`;
}

/**
 * Until `restore` is called, the statements of the unit of work's manager run once the copies
 * started before them have ended (a failed copy fails them with its error): a server would queue them
 * behind a copy on the connection anyway, but the embedded engine would run them in the middle of the
 * copy's statements (a measured import failed with its "bind message supplies 1 parameters, but
 * prepared statement requires 0"). The work may so go on while a copy is written, statements included;
 * a copy's own rows must not wait for a statement of its unit of work (that statement waits for it).
 */
function statementsAfterCopies(manager: EntityManager, copies: Promise<CopyOutcome>[]): () => void {
  const runner = manager.queryRunner;
  if (runner === undefined) return () => undefined;
  const query = runner.query;
  runner.query = async (...args: Parameters<QueryRunner['query']>) => {
    if (copies.length > 0) {
      const failure = (await Promise.all(copies.slice())).find((outcome) => !outcome.ok);
      if (failure !== undefined) throw failure.error;
    }
    return query.apply(runner, args);
  };
  return () => {
    runner.query = query;
  };
}

/** Waits for every copy, including those started while waiting. */
async function settled(copies: Promise<CopyOutcome>[]): Promise<CopyOutcome[]> {
  let outcomes: CopyOutcome[] = [];
  while (outcomes.length < copies.length) outcomes = await Promise.all(copies.slice());
  return outcomes;
}

/**
 * Owns the TypeORM data source: the embedded PostgreSQL when `DATABASE_URL` is unset, that server
 * otherwise. Migrations run at start-up; when the server is unreachable the service still starts
 * (live, not ready) and keeps trying in the background. The pool reconnects by itself when a
 * server that went away comes back.
 */
@Injectable()
export class Database implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(Database.name);
  private readonly transactions = new AsyncLocalStorage<TransactionScope>();
  private source: DataSource | undefined;
  private embedded: EmbeddedPostgres | undefined;
  private bulkWriter: BulkWriter = new StreamingBulkWriter();
  private retryTimer: NodeJS.Timeout | undefined;
  private migrated = false;
  private stopping = false;
  /** The statistics being refreshed in the background (`refreshStatisticsAfterCommit`), awaited at shutdown. */
  private refreshing: Promise<void> = Promise.resolve();

  /** The embedded engine, started as soon as the service knows it needs one (see the constructor). */
  private readonly engineStarting: Promise<EmbeddedPostgres> | undefined;

  constructor(
    private readonly config: AppConfig,
    @Inject(PERSISTENCE_OPTIONS) private readonly options: PersistenceOptions,
  ) {
    // The engine's process starts while the rest of the application is being put together (a second
    // or so saved at every start); a failure is reported where it is awaited, at bootstrap.
    this.engineStarting = config.databaseUrl === undefined ? EmbeddedPostgres.start(config.dataDir, { schema: migrationsSchema(options.migrations) }) : undefined;
    this.engineStarting?.catch(() => undefined);
  }

  /** Connects and migrates before the server listens; a server that is down is retried in the background. */
  async onApplicationBootstrap(): Promise<void> {
    const serverUrl = this.config.databaseUrl;
    if (serverUrl === undefined) {
      this.embedded = await (this.engineStarting as Promise<EmbeddedPostgres>);
      this.bulkWriter = new EngineBulkWriter(this.embedded);
      await this.connect(this.embedded.url, 1, EMBEDDED_CONNECTION_WAIT_MS);
      return;
    }
    try {
      await this.connect(serverUrl, 10);
    } catch (error) {
      this.logger.error(`database not reachable (${describe(error)}); retrying every ${RETRY_DELAY_MS / 1000}s`);
      this.scheduleRetry(serverUrl);
    }
  }

  /** True once migrations have run; the service is ready from then on while the database answers. */
  get isMigrated(): boolean {
    return this.migrated;
  }

  get dataSource(): DataSource {
    if (!this.migrated || this.source === undefined) throw new DatabaseUnavailableError();
    return this.source;
  }

  /** The entity manager to use: the current unit of work's, or the pool's. */
  get manager(): EntityManager {
    return this.transactions.getStore()?.manager ?? this.dataSource.manager;
  }

  /** Runs `work` in one database transaction; repositories called inside it join it. */
  async inTransaction<T>(work: () => Promise<T>): Promise<T> {
    const current = this.transactions.getStore();
    if (current !== undefined) return work();
    const committed: (() => void)[] = [];
    const copies: Promise<CopyOutcome>[] = [];
    const statistics = new Map<string, TableWrites>();
    const result = await this.dataSource.transaction((manager) =>
      this.transactions.run({ manager, committed, copies, statistics }, async () => {
        let value: T;
        const restore = statementsAfterCopies(manager, copies);
        try {
          value = await work();
        } catch (error) {
          await settled(copies); // nothing of this transaction may reach the connection after its rollback
          throw error;
        } finally {
          restore(); // the commit or the rollback runs as it is
        }
        // A copy the work did not wait for still belongs to it: it lands before the commit, or its
        // failure rolls the transaction back.
        const failure = (await settled(copies)).find((outcome) => !outcome.ok);
        if (failure !== undefined) throw failure.error;
        return value;
      }),
    );
    for (const announce of committed) {
      try {
        announce();
      } catch (error) {
        this.logger.error(`after-commit work failed: ${describe(error)}`);
      }
    }
    if (statistics.size > 0) this.refreshStatistics(statistics);
    return result;
  }

  /**
   * Tells that `rows` rows have been written to `tables` (each with the columns whose statistics the
   * queries need: what they filter, join and group on). Once the current unit of work has committed
   * (at once outside one), in the background, the statistics of those tables are refreshed where the
   * unit of work has made them stale: it wrote at least `STATISTICS_MIN_ROWS` rows to the table, and a
   * tenth of the rows they counted. (Not the server's count of changes since the last ANALYZE: a
   * connection reports its changes a second or more after its commit, so an import's rows were counted
   * again after the ANALYZE that followed it, and every upload after it seemed to find them stale.)
   * After a large import a table's row count and value spread are far from what its statistics say,
   * and queries planned on them can take several times longer: the embedded engine never refreshes
   * them by itself, a server's autovacuum only after a while. A day's rows added to a million are not:
   * ANALYZE reads a sample from all over the table (hundreds of milliseconds at a million rows), which
   * would slow the reports asked for right after the upload for no better plan. The writes of one unit
   * of work make one job; a failure is logged, as statistics only make queries faster.
   */
  refreshStatisticsAfterCommit(tables: Readonly<Record<string, readonly string[]>>, rows: number): void {
    for (const [table, columns] of Object.entries(tables)) analyzeStatement(table, columns); // names checked here, not after the commit
    const scope = this.transactions.getStore();
    const writes = scope?.statistics ?? new Map<string, TableWrites>();
    for (const [table, columns] of Object.entries(tables)) {
      const written = writes.get(table) ?? { columns: new Set<string>(), rows: 0 };
      for (const column of columns) written.columns.add(column);
      written.rows += rows;
      writes.set(table, written);
    }
    if (scope === undefined) this.refreshStatistics(writes);
  }

  /** Resolves when the statistics asked for so far have been refreshed (or failed to be). */
  statisticsRefreshed(): Promise<void> {
    return this.refreshing;
  }

  private refreshStatistics(writes: ReadonlyMap<string, TableWrites>): void {
    const candidates = [...writes].filter(([, written]) => written.rows >= STATISTICS_MIN_ROWS);
    if (candidates.length === 0) return;
    this.refreshing = this.refreshing.then(async () => {
      try {
        if (this.stopping) return;
        const counted: SqlRow[] = await this.dataSource.query(
          `SELECT relname, reltuples::float8 AS counted FROM pg_class
            WHERE relname = ANY($1::text[]) AND relkind = 'r' AND pg_table_is_visible(oid)`,
          [candidates.map(([table]) => table)],
        );
        const tables = new Map(counted.map((row) => [String(row.relname), Number(row.counted)]));
        for (const [table, written] of candidates) {
          const rows = tables.get(table) ?? -1; // -1: never measured
          if (rows >= 0 && written.rows < STATISTICS_STALE_SHARE * rows) continue;
          if (this.stopping) return;
          await this.dataSource.query(analyzeStatement(table, [...written.columns]));
        }
      } catch (error) {
        if (!this.stopping) this.logger.warn(`could not refresh the tables' statistics: ${describe(error)}`);
      }
    });
  }

  /**
   * Runs `announce` once the current transaction has committed (never if it rolls back), or at once
   * outside a transaction: news of changed data (a report version) must not reach readers on other
   * connections before they can see the data.
   */
  afterCommit(announce: () => void): void {
    const scope = this.transactions.getStore();
    if (scope === undefined) announce();
    else scope.committed.push(announce);
  }

  /**
   * Writes rows with `COPY … FROM`, the fastest way into PostgreSQL, inside the current unit of work
   * (so they land with the rest of it, or not at all), one job after the other; resolves with how
   * many rows each job wrote. The unit of work waits for the copy before it commits or rolls back, and
   * its failure rolls it back: the caller may go on with other work (CPU work while the database
   * writes, statements too: they wait for the copy, `statementsAfterCopies`) and await the promise
   * later, or not at all if that work fails first.
   */
  copyRows(...jobs: (CopyJob | CopyTextJob)[]): Promise<number[]> {
    const scope = this.transactions.getStore();
    if (scope?.manager.queryRunner === undefined) return Promise.reject(new Error('copyRows runs inside a unit of work'));
    const done = this.bulkWriter.write(scope.manager.queryRunner, jobs);
    // The handler here also keeps a promise the caller leaves behind from counting as unhandled.
    scope.copies.push(
      done.then(
        () => ({ ok: true }),
        (error: unknown) => ({ ok: false, error }),
      ),
    );
    return done;
  }

  /**
   * A real round trip to the database, bounded in time. The embedded engine is one session that an
   * import may hold for seconds: it is asked over its own channel, which answers between statements.
   */
  async ping(timeoutMs = 2000): Promise<void> {
    const source = this.dataSource;
    const embedded = this.embedded;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([embedded !== undefined ? embedded.ping() : source.query('SELECT 1'), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  get kind(): 'embedded' | 'server' {
    return this.config.databaseUrl === undefined ? 'embedded' : 'server';
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.retryTimer);
    await this.refreshing;
    this.migrated = false;
    if (this.source?.isInitialized) await this.source.destroy();
    await this.embedded?.stop();
    this.logger.log('database closed');
  }

  private async connect(url: string, poolSize: number, waitMs = CONNECT_TIMEOUT_MS): Promise<void> {
    const source = new DataSource({
      type: 'postgres',
      url: this.kind === 'server' ? withIsoDates(url) : url,
      entities: this.options.entities,
      migrations: this.options.migrations,
      migrationsTableName: MIGRATIONS_TABLE,
      synchronize: false,
      logging: ['error', 'warn', 'migration'],
      poolSize,
      connectTimeoutMS: CONNECT_TIMEOUT_MS,
      extra: { connectionTimeoutMillis: waitMs },
    });
    await source.initialize();
    try {
      await this.migrate(source);
    } catch (error) {
      await source.destroy().catch(() => undefined);
      throw error;
    }
    this.source = source;
    this.migrated = true;
    this.logger.log(`database ready (${this.kind})`);
  }

  private async migrate(source: DataSource): Promise<void> {
    if (this.embedded !== undefined) {
      await source.runMigrations({ transaction: 'each' });
      return;
    }
    const runner = source.createQueryRunner();
    try {
      await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      await source.runMigrations({ transaction: 'each' });
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
      await runner.release();
    }
  }

  private scheduleRetry(url: string): void {
    if (this.stopping) return;
    this.retryTimer = setTimeout(() => {
      this.connect(url, 10).catch((error: unknown) => {
        this.logger.warn(`database still not reachable (${describe(error)})`);
        this.scheduleRetry(url);
      });
    }, RETRY_DELAY_MS);
    this.retryTimer.unref();
  }
}

/**
 * The migrations as a schema for the embedded engine's templates: a new embedded database starts as
 * a copy of one they were applied to. The key is the migrations' source text, so an edited migration
 * makes a new template.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export function migrationsSchema(migrations: Function[]): Schema {
  return {
    key: migrations.map((migration) => `${migration.name}\n${migration.toString()}`).join('\n'),
    async apply(url: string): Promise<void> {
      const source = new DataSource({ type: 'postgres', url, migrations, migrationsTableName: MIGRATIONS_TABLE, poolSize: 1, logging: ['error'] });
      await source.initialize();
      try {
        await source.runMigrations({ transaction: 'each' });
      } finally {
        await source.destroy();
      }
    },
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A server's URL with the ISO `DateStyle` added to its connections' startup `options` (after any the
 * URL gives, which the driver would take over one set beside it): whatever the server or the database
 * is set to, a date's own text is `YYYY-MM-DD`, which the month's trades are written with
 * (`sql-trade-reports.ts`). The embedded engine starts with it (`SETTINGS`).
 */
export function withIsoDates(url: string): string {
  const withOptions = new URL(url);
  const given = withOptions.searchParams.get('options');
  withOptions.searchParams.set('options', `${given === null ? '' : `${given} `}-c DateStyle=ISO`);
  return withOptions.toString();
}
