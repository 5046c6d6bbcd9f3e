import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Clock } from '@app/calendar';
import { SingleFlight } from '@app/shared';
import { CachedReport, ReportVersions } from '@app/trades';
import { HoldingsChanges } from '../application/holdings-changes.js';

/** The longest a positions answer is reused: a price fetched by another instance shows within this. */
const MAX_FRESH_MS = 30_000;
const MAX_ENTRIES = 1_000;

interface Entry {
  readonly userId: number;
  readonly report: CachedReport;
  readonly version: number;
  readonly expiresAt: number;
}

/**
 * Serialised positions answers per user and address. One is reused while the user's imports (report
 * version) are unchanged and no manual holding of theirs changed in this process, for at most
 * MAX_FRESH_MS and never past the moment its oldest price turns stale; an answer with prices still
 * pending is not kept, so the next read shows what has arrived. 1,000 positions are ~430 KB of JSON:
 * computing and compressing that per request cannot keep up with a page polling it from several tabs.
 */
@Injectable()
export class PositionsResponseCache implements OnModuleDestroy {
  private readonly entries = new Map<string, Entry>();
  private readonly computing = new SingleFlight<CachedReport>();
  /** Per user, raised by a change of their manual holdings: answers computed before are not kept. */
  private readonly generations = new Map<number, number>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly versions: ReportVersions,
    private readonly clock: Clock,
    changes: HoldingsChanges,
  ) {
    this.unsubscribe = changes.subscribe((userId) => {
      this.generations.set(userId, (this.generations.get(userId) ?? 0) + 1);
      for (const [key, entry] of this.entries) if (entry.userId === userId) this.entries.delete(key);
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe();
  }

  async response(userId: number, address: string, compute: () => Promise<{ body: object; freshForMs: number }>): Promise<CachedReport> {
    const version = await this.versions.current(userId);
    const generation = this.generations.get(userId) ?? 0;
    const key = `${userId} ${address}`;
    const entry = this.entries.get(key);
    if (entry !== undefined && entry.version === version && this.clock.now().getTime() < entry.expiresAt) {
      return entry.report;
    }
    return this.computing.run(`${version} ${generation} ${key}`, async () => {
      const { body, freshForMs } = await compute();
      const report = CachedReport.of(version, body);
      this.entries.delete(key);
      // Kept only when no holding changed while it was computed.
      if (freshForMs > 0 && generation === (this.generations.get(userId) ?? 0)) {
        this.entries.set(key, { userId, report, version, expiresAt: this.clock.now().getTime() + Math.min(freshForMs, MAX_FRESH_MS) });
        if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
      }
      return report;
    });
  }
}
