import { Injectable } from '@nestjs/common';
import { Clock } from '@app/calendar';
import { AccessDeniedError, AuthenticationRequiredError, SingleFlight, type AuthenticatedUser } from '@app/shared';
import { AuthSettings } from './auth-settings.js';
import { hashToken, randomToken } from './secrets.js';
import { Sessions } from './sessions.port.js';

export interface ActiveSession {
  user: AuthenticatedUser;
  /** True when this request moved the expiry forward (the cookie is renewed with it). */
  renewed: boolean;
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Server-side sessions: an opaque random token in the browser's cookie, its hash in the database,
 * sliding expiry after the idle window, and the allow-list checked on every request.
 */
@Injectable()
export class SessionService {
  /**
   * The touches being written, by session: the requests of a page load (or a burst from several tabs)
   * that find the session due at once share one write instead of each queueing its own.
   */
  private readonly touching = new SingleFlight<void>();

  constructor(
    private readonly sessions: Sessions,
    private readonly settings: AuthSettings,
    private readonly clock: Clock,
  ) {}

  /** A new session for the user; returns the token for the cookie. Expired sessions are swept here. */
  async open(userId: number): Promise<string> {
    const now = this.clock.now();
    await this.sessions.deleteExpired(now);
    const token = randomToken();
    await this.sessions.create({
      id: hashToken(token),
      userId,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: this.settings.sessions.expiresAfter(now),
    });
    return token;
  }

  /**
   * The signed-in user behind a cookie's token. No, unknown or expired session: 401. A user no longer
   * on the allow-list: 403, for as long as the address stays off the list.
   */
  async resolve(token: string | undefined): Promise<ActiveSession> {
    if (token === undefined || !TOKEN_SHAPE.test(token)) throw new AuthenticationRequiredError();
    const id = hashToken(token);
    const session = await this.sessions.findWithUser(id);
    if (session === null) throw new AuthenticationRequiredError();
    const now = this.clock.now();
    const policy = this.settings.sessions;
    if (policy.isExpired(session, now)) {
      await this.sessions.delete(id);
      throw new AuthenticationRequiredError();
    }
    if (!this.settings.allowList.admits(session.user.email)) throw new AccessDeniedError();
    if (!policy.needsTouch(session, now)) return { user: session.user, renewed: false };
    await this.touch(id, now);
    return { user: session.user, renewed: true };
  }

  /** Records activity on the session, joining the write already under way for it, if any. */
  private touch(id: string, now: Date): Promise<void> {
    return this.touching.run(id, () => this.sessions.touch(id, now, this.settings.sessions.expiresAfter(now)));
  }

  /** Like `resolve`, but answers null instead of refusing (for pages that only want to know). */
  async peek(token: string | undefined): Promise<AuthenticatedUser | null> {
    try {
      return (await this.resolve(token)).user;
    } catch (error) {
      if (error instanceof AuthenticationRequiredError || error instanceof AccessDeniedError) return null;
      throw error;
    }
  }

  async close(token: string | undefined): Promise<void> {
    if (token === undefined || !TOKEN_SHAPE.test(token)) return;
    await this.sessions.delete(hashToken(token));
  }
}
