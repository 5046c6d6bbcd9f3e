import type { AuthenticatedUser } from '@app/shared';

/** A server-side session. `id` is the SHA-256 of the opaque token in the cookie, never the token. */
export interface StoredSession {
  id: string;
  userId: number;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

export interface SessionWithUser extends StoredSession {
  user: AuthenticatedUser;
}

export abstract class Sessions {
  abstract create(session: StoredSession): Promise<void>;
  abstract findWithUser(id: string): Promise<SessionWithUser | null>;
  abstract touch(id: string, lastSeenAt: Date, expiresAt: Date): Promise<void>;
  abstract delete(id: string): Promise<void>;
  /** Removes sessions that expired before `now`; returns how many. */
  abstract deleteExpired(now: Date): Promise<number>;
}
