import { AccessDeniedError, AuthenticationRequiredError } from '@app/shared';
import { AllowList } from '../domain/allow-list.js';
import { SessionPolicy } from '../domain/session-policy.js';
import { InMemorySessions } from '../testing/in-memory-sessions.js';
import { InMemoryUsers } from '../testing/in-memory-users.js';
import { FixedClock } from '@app/calendar/testing';
import { AuthSettings } from './auth-settings.js';
import { hashToken } from './secrets.js';
import { SessionService } from './session.service.js';

const MINUTE = 60_000;
const SECOND = 1000;

describe('SessionService', () => {
  let clock: FixedClock;
  let users: InMemoryUsers;
  let sessions: InMemorySessions;
  let allowed: string[];
  let service: SessionService;
  let userId: number;

  beforeEach(async () => {
    clock = new FixedClock('2026-03-02T09:00:00Z');
    users = new InMemoryUsers();
    sessions = new InMemorySessions(users);
    allowed = ['alice@example.com'];
    const settings = {
      get allowList() {
        return new AllowList(allowed);
      },
      sessions: new SessionPolicy(30),
      builtInProvider: false,
      signInWindowMs: 600_000,
    } as AuthSettings;
    service = new SessionService(sessions, settings, clock);
    userId = (await users.recordSignIn({ email: 'alice@example.com', name: 'Alice' }, clock.now())).id;
  });

  it('opens a session under a random token, storing only its hash', async () => {
    const token = await service.open(userId);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect([...sessions.rows.keys()]).toEqual([hashToken(token)]);
    expect(sessions.rows.get(hashToken(token))).toMatchObject({ userId, expiresAt: new Date('2026-03-02T09:30:00Z') });
    expect(await service.open(userId)).not.toBe(token);
  });

  it('resolves a live token to its user', async () => {
    const token = await service.open(userId);
    expect(await service.resolve(token)).toEqual({ user: { id: userId, email: 'alice@example.com', name: 'Alice' }, renewed: false });
  });

  it.each([undefined, '', 'short', 'x'.repeat(43)])('refuses %j with 401', async (token) => {
    await expect(service.resolve(token)).rejects.toBeInstanceOf(AuthenticationRequiredError);
  });

  it('ends a session idle for the whole window, and deletes it', async () => {
    const token = await service.open(userId);
    clock.advance(29 * MINUTE);
    await expect(service.resolve(token)).resolves.toMatchObject({ renewed: true });
    clock.advance(30 * MINUTE);
    await expect(service.resolve(token)).rejects.toBeInstanceOf(AuthenticationRequiredError);
    expect(sessions.rows.size).toBe(0);
  });

  it('slides the expiry with activity, recording it at most once a minute', async () => {
    const token = await service.open(userId);
    clock.advance(30 * SECOND);
    expect((await service.resolve(token)).renewed).toBe(false);
    clock.advance(30 * SECOND);
    expect((await service.resolve(token)).renewed).toBe(true);
    expect(sessions.rows.get(hashToken(token))?.expiresAt).toEqual(new Date('2026-03-02T09:31:00Z'));
    // Active every 20 minutes for two hours: never idle for 30.
    for (let step = 0; step < 6; step += 1) {
      clock.advance(20 * MINUTE);
      await service.resolve(token);
    }
    await expect(service.resolve(token)).resolves.toBeDefined();
  });

  it('records the activity of requests that find the session due at once with one write', async () => {
    const token = await service.open(userId);
    clock.advance(MINUTE);
    let writes = 0;
    const touch = sessions.touch.bind(sessions);
    sessions.touch = (...args) => {
      writes += 1;
      return touch(...args);
    };
    const resolved = await Promise.all(Array.from({ length: 64 }, () => service.resolve(token)));
    expect(writes).toBe(1);
    expect(resolved.every((session) => session.renewed)).toBe(true);
    expect(sessions.rows.get(hashToken(token))?.expiresAt).toEqual(new Date('2026-03-02T09:31:00Z'));
    // The write done, the next due request writes again.
    clock.advance(MINUTE);
    await service.resolve(token);
    expect(writes).toBe(2);
  });

  it('refuses a user taken off the allow-list with 403 at once, and admits them again when put back', async () => {
    const token = await service.open(userId);
    allowed = ['bob@example.com'];
    await expect(service.resolve(token)).rejects.toBeInstanceOf(AccessDeniedError);
    allowed = ['alice@example.com'];
    await expect(service.resolve(token)).resolves.toBeDefined();
  });

  it('says 401 rather than 403 for an expired session of a removed user', async () => {
    const token = await service.open(userId);
    allowed = [];
    clock.advance(31 * MINUTE);
    await expect(service.resolve(token)).rejects.toBeInstanceOf(AuthenticationRequiredError);
  });

  it('peeks without refusing', async () => {
    const token = await service.open(userId);
    expect(await service.peek(token)).toMatchObject({ email: 'alice@example.com' });
    expect(await service.peek('nonsense')).toBeNull();
  });

  it('closes a session for good, and sweeps expired ones when opening another', async () => {
    const first = await service.open(userId);
    await service.close(first);
    await expect(service.resolve(first)).rejects.toBeInstanceOf(AuthenticationRequiredError);
    await service.open(userId);
    clock.advance(45 * MINUTE);
    await service.open(userId);
    expect(sessions.rows.size).toBe(1);
  });
});
