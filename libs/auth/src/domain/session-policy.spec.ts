import { SessionPolicy } from './session-policy.js';

const at = (iso: string) => new Date(iso);

describe('SessionPolicy', () => {
  const policy = new SessionPolicy(120);
  const session = { lastSeenAt: at('2026-03-02T09:00:00Z'), expiresAt: at('2026-03-02T11:00:00Z') };

  it('expires a session idle windows after its last recorded activity, not a moment earlier', () => {
    expect(policy.expiresAfter(session.lastSeenAt)).toEqual(session.expiresAt);
    expect(policy.isExpired(session, at('2026-03-02T10:59:59.999Z'))).toBe(false);
    expect(policy.isExpired(session, at('2026-03-02T11:00:00Z'))).toBe(true);
  });

  it('records activity at most once a minute (a tenth of short idle windows)', () => {
    expect(policy.touchIntervalMs).toBe(60_000);
    expect(policy.needsTouch(session, at('2026-03-02T09:00:59Z'))).toBe(false);
    expect(policy.needsTouch(session, at('2026-03-02T09:01:00Z'))).toBe(true);
    expect(new SessionPolicy(1).touchIntervalMs).toBe(6_000);
  });

  it('keeps the cookie as long as the idle window plus the touch slack', () => {
    expect(policy.cookieLifetimeSeconds).toBe(7260);
    expect(new SessionPolicy(1).cookieLifetimeSeconds).toBe(66);
  });

  it('refuses a window that is not positive', () => {
    expect(() => new SessionPolicy(0)).toThrow(RangeError);
  });
});
