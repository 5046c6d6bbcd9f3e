/** What the idle-expiry rule needs to know about a server-side session. */
export interface SessionTimes {
  lastSeenAt: Date;
  expiresAt: Date;
}

const MINUTE_MS = 60_000;
/** Recording activity costs a database write: at most once a minute per session. */
const MAX_TOUCH_INTERVAL_MS = MINUTE_MS;

/**
 * Sliding expiry: a session lives `idleMinutes` past the last request that was recorded. Activity is
 * recorded at most every `touchIntervalMs` (a tenth of the idle window, capped at a minute), so a
 * session may end up to that much earlier than `idleMinutes` after the very last request.
 */
export class SessionPolicy {
  readonly idleMs: number;
  readonly touchIntervalMs: number;

  constructor(idleMinutes: number) {
    if (!Number.isFinite(idleMinutes) || idleMinutes <= 0) throw new RangeError(`idleMinutes must be positive (got ${idleMinutes})`);
    this.idleMs = idleMinutes * MINUTE_MS;
    this.touchIntervalMs = Math.min(MAX_TOUCH_INTERVAL_MS, Math.floor(this.idleMs / 10));
  }

  /** The expiry of a session whose last recorded activity is `seenAt`. */
  expiresAfter(seenAt: Date): Date {
    return new Date(seenAt.getTime() + this.idleMs);
  }

  isExpired(session: SessionTimes, now: Date): boolean {
    return now.getTime() >= session.expiresAt.getTime();
  }

  /** True when this request should move the session's expiry forward. */
  needsTouch(session: SessionTimes, now: Date): boolean {
    return now.getTime() - session.lastSeenAt.getTime() >= this.touchIntervalMs;
  }

  /** How long the browser keeps the cookie: the idle window plus the touch slack, renewed on each touch. */
  get cookieLifetimeSeconds(): number {
    return Math.ceil((this.idleMs + this.touchIntervalMs) / 1000);
  }
}
