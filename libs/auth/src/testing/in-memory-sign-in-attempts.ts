import { SignInAttempts, type SignInAttempt } from '../application/sign-in-attempts.port.js';

export class InMemorySignInAttempts extends SignInAttempts {
  readonly rows = new Map<string, SignInAttempt>();

  async save(attempt: SignInAttempt): Promise<void> {
    this.rows.set(attempt.id, { ...attempt });
  }

  async take(id: string): Promise<SignInAttempt | null> {
    const attempt = this.rows.get(id) ?? null;
    this.rows.delete(id);
    return attempt;
  }

  async deleteExpired(now: Date): Promise<number> {
    let removed = 0;
    for (const [id, attempt] of this.rows) {
      if (attempt.expiresAt.getTime() <= now.getTime()) {
        this.rows.delete(id);
        removed += 1;
      }
    }
    return removed;
  }
}
