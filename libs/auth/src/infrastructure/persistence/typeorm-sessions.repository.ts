import { Injectable } from '@nestjs/common';
import { LessThanOrEqual } from 'typeorm';
import { Database } from '@app/persistence';
import { Sessions, type SessionWithUser, type StoredSession } from '../../application/sessions.port.js';
import { SessionOrmEntity } from './session.orm-entity.js';

interface SessionRow {
  id: string;
  user_id: number;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  email: string;
  name: string | null;
}

@Injectable()
export class TypeOrmSessions extends Sessions {
  constructor(private readonly database: Database) {
    super();
  }

  async create(session: StoredSession): Promise<void> {
    await this.database.manager.insert(SessionOrmEntity, { ...session });
  }

  async findWithUser(id: string): Promise<SessionWithUser | null> {
    const rows: SessionRow[] = await this.database.manager.query(
      `SELECT s.id, s.user_id, s.created_at, s.last_seen_at, s.expires_at, u.email, u.name
         FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.id = $1`,
      [id],
    );
    const row = rows[0];
    if (row === undefined) return null;
    return {
      id: row.id,
      userId: row.user_id,
      createdAt: row.created_at,
      lastSeenAt: row.last_seen_at,
      expiresAt: row.expires_at,
      user: { id: row.user_id, email: row.email, name: row.name },
    };
  }

  async touch(id: string, lastSeenAt: Date, expiresAt: Date): Promise<void> {
    await this.database.manager.update(SessionOrmEntity, { id }, { lastSeenAt, expiresAt });
  }

  async delete(id: string): Promise<void> {
    await this.database.manager.delete(SessionOrmEntity, { id });
  }

  async deleteExpired(now: Date): Promise<number> {
    const result = await this.database.manager.delete(SessionOrmEntity, { expiresAt: LessThanOrEqual(now) });
    return result.affected ?? 0;
  }
}
