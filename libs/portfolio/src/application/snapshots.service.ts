import { Injectable } from '@nestjs/common';
import { Clock } from '@app/calendar';
import { portfolioTotals } from '../domain/portfolio-totals.js';
import { SnapshotNotFoundError } from '../domain/portfolio.errors.js';
import { deletedSnapshotMessage, type Snapshot, type SnapshotType } from '../domain/snapshot.js';
import { HoldingsService } from './holdings.service.js';
import { PositionsService } from './positions.service.js';
import { Snapshots } from './snapshots.port.js';

const DAY_MS = 86_400_000;

@Injectable()
export class SnapshotsService {
  constructor(
    private readonly holdings: HoldingsService,
    private readonly positions: PositionsService,
    private readonly snapshots: Snapshots,
    private readonly clock: Clock,
  ) {}

  /**
   * Records the portfolio now: the manual holdings and the imported positions at their latest prices,
   * re-pricing stale ones first as the lists do (bounded wait; what the budget cannot fit in counts at
   * its cached price).
   */
  async take(userId: number, type: SnapshotType, notes: string): Promise<Snapshot> {
    const [priced, positions] = await Promise.all([this.holdings.list(userId), this.positions.list(userId)]);
    const totals = portfolioTotals([...priced.map((p) => p.valuation), ...positions.positions.map((p) => p.valuation)]);
    return this.snapshots.create({ userId, type, takenAt: this.clock.now(), tradingDate: null, notes, ...totals });
  }

  /** Newest first; `days` counts back from now, 0 means all. */
  history(userId: number, days: number, type?: SnapshotType): Promise<Snapshot[]> {
    const since = days > 0 ? new Date(this.clock.now().getTime() - days * DAY_MS) : undefined;
    return this.snapshots.findByUser(userId, { since, type });
  }

  /** The contract's message naming the deleted snapshot's type and time. */
  async delete(userId: number, id: number): Promise<string> {
    const deleted = await this.snapshots.delete(userId, id);
    if (deleted === null) throw new SnapshotNotFoundError();
    return deletedSnapshotMessage(deleted);
  }
}
