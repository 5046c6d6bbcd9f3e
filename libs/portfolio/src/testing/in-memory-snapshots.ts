import { Snapshots, type SnapshotQuery } from '../application/snapshots.port.js';
import type { Snapshot, SnapshotDraft } from '../domain/snapshot.js';

export class InMemorySnapshots extends Snapshots {
  readonly rows: Snapshot[] = [];
  private nextId = 1;

  async create(draft: SnapshotDraft): Promise<Snapshot> {
    const snapshot: Snapshot = { id: this.nextId++, ...draft };
    this.rows.push(snapshot);
    return snapshot;
  }

  async createEndOfDay(draft: SnapshotDraft & { tradingDate: string }): Promise<Snapshot | null> {
    if (this.rows.some((s) => s.userId === draft.userId && s.tradingDate === draft.tradingDate)) return null;
    return this.create(draft);
  }

  async findByUser(userId: number, query: SnapshotQuery): Promise<Snapshot[]> {
    return this.rows
      .filter((s) => s.userId === userId && (query.since === undefined || s.takenAt >= query.since) && (query.type === undefined || s.type === query.type))
      .sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime() || b.id - a.id);
  }

  async delete(userId: number, id: number): Promise<Snapshot | null> {
    const index = this.rows.findIndex((s) => s.id === id && s.userId === userId);
    return index < 0 ? null : this.rows.splice(index, 1)[0];
  }

  async usersWithoutEndOfDay(userIds: readonly number[], tradingDate: string): Promise<number[]> {
    return userIds.filter((id) => !this.rows.some((s) => s.userId === id && s.tradingDate === tradingDate));
  }
}
