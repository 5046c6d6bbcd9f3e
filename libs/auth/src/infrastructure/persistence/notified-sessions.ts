import { NotifiedCache, type NotificationSource } from '@app/persistence';
import type { SessionWithUser, StoredSession } from '../../application/sessions.port.js';
import { Sessions } from '../../application/sessions.port.js';

/** Sessions kept at most (the least recently used one goes first). */
const MAX_CACHED = 10_000;
/** Channels the `sessions` and `users` triggers notify (see the migration that creates them). */
export const SESSION_CHANGES = 'session_changes';
export const USER_CHANGES = 'user_changes';

/**
 * Sessions read through an in-process copy on a PostgreSQL server that several instances may share.
 * The database stays the only truth: a trigger notifies every change to a session row (sign-out,
 * touch, expiry sweep, any SQL) and to a user's e-mail or name, after it commits, and every instance
 * forgets its copy within milliseconds. While the notification connection is down, every request
 * reads the database, as it would without the copy. Expiry and the allow-list are still checked on
 * every request by the session service.
 */
export class NotifiedSessions extends Sessions {
  private readonly cache: NotifiedCache<SessionWithUser>;

  constructor(
    private readonly stored: Sessions,
    notifications: NotificationSource,
  ) {
    super();
    this.cache = new NotifiedCache(notifications, SESSION_CHANGES, MAX_CACHED);
    notifications.subscribe(USER_CHANGES, {
      notified: (payload) => this.cache.forgetWhere((session) => String(session.userId) === payload),
      reset: () => this.cache.reset(),
    });
  }

  create(session: StoredSession): Promise<void> {
    return this.stored.create(session);
  }

  async findWithUser(id: string): Promise<SessionWithUser | null> {
    const session = await this.cache.read(id, () => this.stored.findWithUser(id));
    return session === null ? null : { ...session, user: { ...session.user } };
  }

  async touch(id: string, lastSeenAt: Date, expiresAt: Date): Promise<void> {
    await this.stored.touch(id, lastSeenAt, expiresAt);
    this.cache.forget(id);
  }

  async delete(id: string): Promise<void> {
    this.cache.forget(id);
    await this.stored.delete(id);
    this.cache.forget(id);
  }

  async deleteExpired(now: Date): Promise<number> {
    const removed = await this.stored.deleteExpired(now);
    if (removed > 0) this.cache.forgetWhere((session) => session.expiresAt.getTime() <= now.getTime());
    return removed;
  }
}
