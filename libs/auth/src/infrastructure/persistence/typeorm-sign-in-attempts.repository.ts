import { Injectable } from '@nestjs/common';
import { LessThanOrEqual } from 'typeorm';
import { Database } from '@app/persistence';
import { SignInAttempts, type SignInAttempt } from '../../application/sign-in-attempts.port.js';
import { SignInAttemptOrmEntity } from './sign-in-attempt.orm-entity.js';

interface AttemptRow {
  id: string;
  nonce: string | null;
  code_verifier: string;
  created_at: Date;
  expires_at: Date;
}

@Injectable()
export class TypeOrmSignInAttempts extends SignInAttempts {
  constructor(private readonly database: Database) {
    super();
  }

  async save(attempt: SignInAttempt): Promise<void> {
    await this.database.manager.insert(SignInAttemptOrmEntity, { ...attempt });
  }

  async take(id: string): Promise<SignInAttempt | null> {
    // DELETE … RETURNING: of two callbacks racing with the same state, only one gets the row.
    const [rows] = (await this.database.manager.query(
      `DELETE FROM sign_in_attempts WHERE id = $1 RETURNING id, nonce, code_verifier, created_at, expires_at`,
      [id],
    )) as [AttemptRow[], number];
    const row = rows[0];
    if (row === undefined) return null;
    return { id: row.id, nonce: row.nonce, codeVerifier: row.code_verifier, createdAt: row.created_at, expiresAt: row.expires_at };
  }

  async deleteExpired(now: Date): Promise<number> {
    const result = await this.database.manager.delete(SignInAttemptOrmEntity, { expiresAt: LessThanOrEqual(now) });
    return result.affected ?? 0;
  }
}
