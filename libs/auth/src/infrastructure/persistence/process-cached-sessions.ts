import type { SessionWithUser, StoredSession } from '../../application/sessions.port.js';
import { Sessions } from '../../application/sessions.port.js';

/** Sessions kept at most (the oldest looked-up one goes first). */
const MAX_CACHED = 10_000;

/**
 * Sessions read through an in-process copy, for the embedded database only: that database belongs to
 * this one process, so every change to a session passes through here and the copy is never stale.
 * It spares a database round trip on every signed-in request (the embedded database runs in this
 * process and takes one query at a time). Expiry and the allow-list are still checked on every
 * request by the session service, on the copy. Never used with a PostgreSQL server, where another
 * instance may end a session.
 */
export class ProcessCachedSessions extends Sessions {
  private readonly cache = new Map<string, SessionWithUser>();

  constructor(private readonly stored: Sessions) {
    super();
  }

  create(session: StoredSession): Promise<void> {
    return this.stored.create(session);
  }

  async findWithUser(id: string): Promise<SessionWithUser | null> {
    const cached = this.cache.get(id);
    if (cached !== undefined) {
      this.cache.delete(id);
      this.cache.set(id, cached);
      return { ...cached };
    }
    const session = await this.stored.findWithUser(id);
    if (session !== null) this.remember(session);
    return session === null ? null : { ...session };
  }

  async touch(id: string, lastSeenAt: Date, expiresAt: Date): Promise<void> {
    await this.stored.touch(id, lastSeenAt, expiresAt);
    const cached = this.cache.get(id);
    if (cached !== undefined) this.cache.set(id, { ...cached, lastSeenAt, expiresAt });
  }

  async delete(id: string): Promise<void> {
    this.cache.delete(id);
    await this.stored.delete(id);
    this.cache.delete(id);
  }

  async deleteExpired(now: Date): Promise<number> {
    const removed = await this.stored.deleteExpired(now);
    for (const [id, session] of this.cache) if (session.expiresAt.getTime() <= now.getTime()) this.cache.delete(id);
    return removed;
  }

  private remember(session: SessionWithUser): void {
    this.cache.set(session.id, session);
    if (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value as string);
  }
}
