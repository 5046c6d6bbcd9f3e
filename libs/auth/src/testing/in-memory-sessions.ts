import { Sessions, type SessionWithUser, type StoredSession } from '../application/sessions.port.js';
import type { InMemoryUsers } from './in-memory-users.js';

export class InMemorySessions extends Sessions {
  readonly rows = new Map<string, StoredSession>();

  constructor(private readonly users: InMemoryUsers) {
    super();
  }

  async create(session: StoredSession): Promise<void> {
    if (this.rows.has(session.id)) throw new Error('duplicate session id');
    this.rows.set(session.id, { ...session });
  }

  async findWithUser(id: string): Promise<SessionWithUser | null> {
    const session = this.rows.get(id);
    const user = session && (await this.users.findById(session.userId));
    if (!session || !user) return null;
    return { ...session, user: { id: user.id, email: user.email, name: user.name } };
  }

  async touch(id: string, lastSeenAt: Date, expiresAt: Date): Promise<void> {
    const session = this.rows.get(id);
    if (session) this.rows.set(id, { ...session, lastSeenAt, expiresAt });
  }

  async delete(id: string): Promise<void> {
    this.rows.delete(id);
  }

  async deleteExpired(now: Date): Promise<number> {
    let removed = 0;
    for (const [id, session] of this.rows) {
      if (session.expiresAt.getTime() <= now.getTime()) {
        this.rows.delete(id);
        removed += 1;
      }
    }
    return removed;
  }
}
