import type { ChannelSubscriber, DatabaseNotifications } from './database-notifications.js';

/** The listening side a cache needs: the channel and whether notifications are arriving. */
export type NotificationSource = Pick<DatabaseNotifications, 'isListening' | 'subscribe'>;

/**
 * An in-process copy of database rows that several instances share, kept correct by notifications:
 * a row's key sent on the channel (by a trigger, after the change committed) removes its copy.
 * Copies are used and made only while notifications are arriving; otherwise every read goes to
 * the database. A read that was under way when anything was forgotten is not kept (it may be older
 * than the news). `hold` keeps a key out of the copy until the database announces its change, for a
 * change this process has begun but whose notification has not arrived yet.
 */
export class NotifiedCache<V> implements ChannelSubscriber {
  private readonly entries = new Map<string, V>();
  private readonly held = new Map<string, number>();
  private generation = 0;

  constructor(
    private readonly notifications: NotificationSource,
    channel: string,
    private readonly maxEntries: number,
    private readonly holdMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {
    notifications.subscribe(channel, this);
  }

  /** The copy of `key`, or `load()`'s answer (kept unless null). */
  async read(key: string, load: () => Promise<V | null>): Promise<V | null> {
    const usable = this.notifications.isListening && !this.isHeld(key);
    if (usable) {
      const cached = this.entries.get(key);
      if (cached !== undefined) {
        this.entries.delete(key);
        this.entries.set(key, cached);
        return cached;
      }
    }
    const generation = this.generation;
    const value = await load();
    if (value !== null && usable && generation === this.generation && this.notifications.isListening && !this.isHeld(key)) this.remember(key, value);
    return value;
  }

  forget(key: string): void {
    this.generation += 1;
    this.entries.delete(key);
  }

  /** Forgets every copy the predicate picks (e.g. all sessions of one user). */
  forgetWhere(picks: (value: V) => boolean): void {
    this.generation += 1;
    for (const [key, value] of this.entries) if (picks(value)) this.entries.delete(key);
  }

  /** Reads `key` from the database until its notification arrives (or `holdMs` passes: a rolled-back change sends none). */
  hold(key: string): void {
    this.forget(key);
    this.held.set(key, this.now() + this.holdMs);
  }

  notified(payload: string): void {
    this.held.delete(payload);
    this.forget(payload);
  }

  reset(): void {
    this.generation += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private isHeld(key: string): boolean {
    const until = this.held.get(key);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.held.delete(key);
    return false;
  }

  private remember(key: string, value: V): void {
    this.entries.set(key, value);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }
}
