import { Injectable } from '@nestjs/common';
import { Database } from '@app/persistence';
import { Users } from '../../application/users.port.js';
import type { User } from '../../domain/user.js';
import type { VerifiedIdentity } from '../../domain/verified-identity.js';
import { UserOrmEntity } from './user.orm-entity.js';

interface UserRow {
  id: number;
  email: string;
  name: string | null;
  created_at: Date;
  last_login: Date | null;
}

@Injectable()
export class TypeOrmUsers extends Users {
  constructor(private readonly database: Database) {
    super();
  }

  async recordSignIn(identity: VerifiedIdentity, at: Date): Promise<User> {
    // One statement, so two first sign-ins of the same address at once cannot both insert.
    const rows: UserRow[] = await this.database.manager.query(
      `INSERT INTO users (email, name, created_at, last_login) VALUES ($1, $2, $3, $3)
       ON CONFLICT (email) DO UPDATE SET last_login = EXCLUDED.last_login, name = COALESCE(EXCLUDED.name, users.name)
       RETURNING id, email, name, created_at, last_login`,
      [identity.email, identity.name, at],
    );
    const row = rows[0];
    return { id: row.id, email: row.email, name: row.name, createdAt: row.created_at, lastLogin: row.last_login };
  }

  async findById(id: number): Promise<User | null> {
    const entity = await this.database.manager.findOneBy(UserOrmEntity, { id });
    return entity === null ? null : { id: entity.id, email: entity.email, name: entity.name, createdAt: entity.createdAt, lastLogin: entity.lastLogin };
  }
}
