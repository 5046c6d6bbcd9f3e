import { statfs } from 'node:fs/promises';
import { Injectable, Logger, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheckService, HealthIndicatorService, type HealthCheckResult } from '@nestjs/terminus';
import { Database } from '@app/persistence';
import { AppConfig } from '@app/shared';

export const SERVICE_NAME = 'stocks-trading-analysis';

/** Readiness reasons a probe's caller may see. */
function publicReason(detail: string): string {
  if (/migrations pending/.test(detail)) return 'database not connected yet';
  if (/no answer within/.test(detail)) return 'database not answering in time';
  return 'database unavailable';
}
/** Below this much free space under DATA_DIR the disk check reports degraded. */
export const DISK_FREE_MIN_BYTES = 100 * 1024 * 1024;
const DATABASE_TIMEOUT_MS = 2000;
/**
 * The embedded engine answers between statements (one of an import's can take seconds on a loaded
 * machine), and its process ending is noticed at once: a slow answer from a live engine is not "down".
 */
const EMBEDDED_TIMEOUT_MS = 10_000;

export interface CheckOutcome {
  status: 'healthy' | 'unhealthy';
  message: string;
}

export interface DetailedHealth {
  healthy: boolean;
  checks: { database: CheckOutcome; environment: CheckOutcome; disk_space: CheckOutcome };
}

/** The probes behind /health/*, run through Terminus so shutdown turns readiness off at once. */
@Injectable()
export class HealthChecks {
  private readonly logger = new Logger(HealthChecks.name);
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly database: Database,
    private readonly config: AppConfig,
  ) {}

  /** Ready: migrations have run, the database answers, and the service is not shutting down. */
  async readiness(): Promise<{ ready: boolean; reason?: string }> {
    const result = await this.run([() => this.databaseIndicator()]);
    if (result.status === 'ok') return { ready: true };
    if (result.status === 'shutting_down') return { ready: false, reason: 'shutting down' };
    // The public body says what kind of trouble it is; the driver's words (which may name the
    // database, its host or its user) go to the log only.
    const detail = String(result.details.database?.message ?? '');
    this.logger.warn(`not ready: ${detail}`);
    return { ready: false, reason: publicReason(detail) };
  }

  async detailed(): Promise<DetailedHealth> {
    const result = await this.run([
      () => this.databaseIndicator(),
      () => this.environmentIndicator(),
      () => this.diskIndicator(),
    ]);
    const outcome = (key: string): CheckOutcome => ({
      status: result.details[key]?.status === 'up' ? 'healthy' : 'unhealthy',
      message: String(result.details[key]?.message ?? ''),
    });
    const checks = { database: outcome('database'), environment: outcome('environment'), disk_space: outcome('disk_space') };
    return { healthy: result.status === 'ok', checks };
  }

  private async run(indicators: Parameters<HealthCheckService['check']>[0]): Promise<HealthCheckResult> {
    try {
      return await this.health.check(indicators);
    } catch (error) {
      if (error instanceof ServiceUnavailableException) return error.getResponse() as HealthCheckResult;
      throw error;
    }
  }

  private async databaseIndicator() {
    const session = this.indicators.check('database');
    if (!this.database.isMigrated) return session.down({ message: 'Database not connected (migrations pending)' });
    try {
      await this.database.ping(this.database.kind === 'embedded' ? EMBEDDED_TIMEOUT_MS : DATABASE_TIMEOUT_MS);
      return session.up({ message: `Database connection successful (${this.database.kind} PostgreSQL)` });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return session.down({ message: `Database connection failed: ${reason}` });
    }
  }

  private environmentIndicator() {
    const session = this.indicators.check('environment');
    const optionalMissing = [
      ['FINNHUB_API_KEY', this.config.finnhubApiKey],
      ['AUTHORIZED_USERS', this.config.authorizedUsers.length > 0 ? 'set' : undefined],
    ]
      .filter(([, value]) => value === undefined)
      .map(([name]) => name);
    const note = optionalMissing.length > 0 ? `; optional settings not set: ${optionalMissing.join(', ')}` : '';
    return session.up({ message: `All required environment variables are set (${this.config.nodeEnv})${note}` });
  }

  private async diskIndicator() {
    const session = this.indicators.check('disk_space');
    try {
      const stats = await statfs(this.config.dataDir);
      const free = stats.bavail * stats.bsize;
      const message = `${formatBytes(free)} free in the data directory (minimum ${formatBytes(DISK_FREE_MIN_BYTES)})`;
      return free >= DISK_FREE_MIN_BYTES ? session.up({ message }) : session.down({ message });
    } catch (error) {
      return session.down({ message: `Cannot read free disk space: ${(error as Error).message}` });
    }
  }
}

function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}
