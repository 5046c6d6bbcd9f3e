import type { Snapshot, SnapshotDraft, SnapshotType } from '../domain/snapshot.js';

export interface SnapshotQuery {
  /** Only snapshots taken at or after this instant; undefined for all. */
  readonly since?: Date;
  readonly type?: SnapshotType;
}

export abstract class Snapshots {
  abstract create(draft: SnapshotDraft): Promise<Snapshot>;

  /**
   * Stores an end-of-day snapshot unless the user has one for `draft.tradingDate` already (a unique key,
   * so concurrent instances cannot both write it). Null when one existed.
   */
  abstract createEndOfDay(draft: SnapshotDraft & { tradingDate: string }): Promise<Snapshot | null>;

  /** Newest first. */
  abstract findByUser(userId: number, query: SnapshotQuery): Promise<Snapshot[]>;

  /** The deleted snapshot, or null when there is no such snapshot for this user. */
  abstract delete(userId: number, id: number): Promise<Snapshot | null>;

  /** Users lacking an end-of-day snapshot for `tradingDate` among those given. */
  abstract usersWithoutEndOfDay(userIds: readonly number[], tradingDate: string): Promise<number[]>;
}
