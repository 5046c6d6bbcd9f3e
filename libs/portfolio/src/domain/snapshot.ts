import type { PortfolioTotals } from './portfolio-totals.js';

export const SNAPSHOT_TYPES = ['MANUAL', 'AUTOMATIC', 'EOD'] as const;
export type SnapshotType = (typeof SNAPSHOT_TYPES)[number];

export function isSnapshotType(value: unknown): value is SnapshotType {
  return typeof value === 'string' && (SNAPSHOT_TYPES as readonly string[]).includes(value);
}

/** A portfolio's totals recorded at one instant. */
export interface Snapshot extends PortfolioTotals {
  readonly id: number;
  readonly userId: number;
  readonly type: SnapshotType;
  readonly takenAt: Date;
  /** Set on the automatic end-of-day snapshot only: the trading day it closes (unique per user). */
  readonly tradingDate: string | null;
  readonly notes: string;
}

export type SnapshotDraft = Omit<Snapshot, 'id'>;

/** The contract's DELETE message: names the snapshot's type and time. */
export function deletedSnapshotMessage(snapshot: Pick<Snapshot, 'type' | 'takenAt'>): string {
  return `Deleted ${snapshot.type} snapshot taken at ${snapshot.takenAt.toISOString()}`;
}
