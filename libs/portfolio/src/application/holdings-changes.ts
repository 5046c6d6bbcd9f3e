import { Injectable } from '@nestjs/common';

type Listener = (userId: number) => void;

/**
 * In-process news that a user's manual holdings changed (added, changed, deleted, imported): answers
 * cached from them are dropped at once in this process. Other instances keep theirs for their short
 * lifetime (PositionsResponseCache), as they do a price fetched elsewhere.
 */
@Injectable()
export class HoldingsChanges {
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed(userId: number): void {
    for (const listener of this.listeners) listener(userId);
  }
}
