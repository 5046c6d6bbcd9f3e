import { AccessDeniedError } from '@app/shared';
import { AllowList } from '../domain/allow-list.js';
import { SignInStateError } from '../domain/auth.errors.js';
import { SessionPolicy } from '../domain/session-policy.js';
import { FakeIdentityProvider, MemorySignInSlot } from '../testing/fake-identity-provider.js';
import { InMemorySessions } from '../testing/in-memory-sessions.js';
import { InMemoryUsers } from '../testing/in-memory-users.js';
import { FixedClock } from '@app/calendar/testing';
import { AuthSettings } from './auth-settings.js';
import { SessionService } from './session.service.js';
import { SignInService } from './sign-in.service.js';

const MINUTE = 60_000;

describe('SignInService', () => {
  let provider: FakeIdentityProvider;
  let users: InMemoryUsers;
  let sessionRows: InMemorySessions;
  let sessions: SessionService;
  let service: SignInService;
  let clock: FixedClock;
  let browser: MemorySignInSlot;

  beforeEach(() => {
    clock = new FixedClock('2026-03-02T09:00:00Z');
    provider = new FakeIdentityProvider();
    users = new InMemoryUsers();
    sessionRows = new InMemorySessions(users);
    const settings = new AuthSettings(new AllowList(['demo@example.com']), new SessionPolicy(120), true);
    sessions = new SessionService(sessionRows, settings, clock);
    service = new SignInService(provider, users, sessions, settings, clock);
    browser = new MemorySignInSlot();
  });

  const signIn = async (previous?: string) => {
    await service.begin(browser);
    return service.complete({ code: 'c', state: browser.value }, browser, previous);
  };

  it('records the user and opens a session', async () => {
    const { user, token } = await signIn();
    expect(user).toMatchObject({ email: 'demo@example.com', name: 'Demo', lastLogin: clock.now() });
    expect((await sessions.resolve(token)).user.email).toBe('demo@example.com');
  });

  it('gives every sign-in a new token and ends the session the browser held (no fixation)', async () => {
    const first = await signIn();
    clock.advance(5 * MINUTE);
    const second = await signIn(first.token);
    expect(second.token).not.toBe(first.token);
    expect(await sessions.peek(first.token)).toBeNull();
    expect(await sessions.peek(second.token)).not.toBeNull();
    expect(second.user.lastLogin).toEqual(clock.now());
  });

  it('refuses an address off the allow-list with 403 and writes nothing', async () => {
    provider.identity = { email: 'mallory@example.com', name: null };
    await expect(signIn()).rejects.toBeInstanceOf(AccessDeniedError);
    expect(users.rows).toHaveLength(0);
    expect(sessionRows.rows.size).toBe(0);
  });

  it("keeps the browser's existing session when a sign-in fails", async () => {
    const first = await signIn();
    await service.begin(browser);
    await expect(service.complete({ code: 'c', state: 'forged' }, browser, first.token)).rejects.toBeInstanceOf(SignInStateError);
    expect(await sessions.peek(first.token)).not.toBeNull();
  });
});
