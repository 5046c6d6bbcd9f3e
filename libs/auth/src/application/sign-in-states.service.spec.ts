import { SignInStateError } from '../domain/auth.errors.js';
import { AllowList } from '../domain/allow-list.js';
import { SessionPolicy } from '../domain/session-policy.js';
import { MemorySignInSlot } from '../testing/fake-identity-provider.js';
import { InMemorySignInAttempts } from '../testing/in-memory-sign-in-attempts.js';
import { FixedClock } from '@app/calendar/testing';
import { AuthSettings } from './auth-settings.js';
import { hashToken } from './secrets.js';
import { SignInStates } from './sign-in-states.service.js';

const MINUTE = 60_000;

describe('SignInStates', () => {
  let clock: FixedClock;
  let attempts: InMemorySignInAttempts;
  let states: SignInStates;
  let browser: MemorySignInSlot;

  beforeEach(() => {
    clock = new FixedClock('2026-03-02T09:00:00Z');
    attempts = new InMemorySignInAttempts();
    states = new SignInStates(attempts, new AuthSettings(new AllowList([]), new SessionPolicy(120), false), clock);
    browser = new MemorySignInSlot();
  });

  it('issues a random state, keeps its hash with the nonce and verifier, and gives the browser the handle', async () => {
    const state = await states.issue(browser, 'nonce-1', 'verifier-1');
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(browser.value).toBe(state);
    expect(attempts.rows.get(hashToken(state))).toMatchObject({ nonce: 'nonce-1', codeVerifier: 'verifier-1', expiresAt: new Date('2026-03-02T09:10:00Z') });
    expect(await states.issue(new MemorySignInSlot(), null, 'v')).not.toBe(state);
  });

  it('redeems a state once, for the browser that started it', async () => {
    const state = await states.issue(browser, 'nonce-1', 'verifier-1');
    expect(await states.redeem(state, browser)).toEqual({ nonce: 'nonce-1', codeVerifier: 'verifier-1' });
    expect(browser.value).toBeUndefined();
    browser.write(state);
    await expect(states.redeem(state, browser)).rejects.toThrow(/unknown or already used/);
  });

  it("refuses another browser's state, and spends it", async () => {
    const state = await states.issue(browser, null, 'v');
    const other = new MemorySignInSlot();
    await states.issue(other, null, 'w');
    await expect(states.redeem(state, other)).rejects.toThrow(/does not belong to this browser/);
    await expect(states.redeem(state, browser)).rejects.toThrow(/unknown or already used/);
  });

  it('refuses a browser with no sign-in under way', async () => {
    const state = await states.issue(browser, null, 'v');
    await expect(states.redeem(state, new MemorySignInSlot())).rejects.toThrow(SignInStateError);
  });

  it('refuses a missing or unknown state', async () => {
    await states.issue(browser, null, 'v');
    await expect(states.redeem(undefined, browser)).rejects.toThrow(/state is missing/);
    await expect(states.redeem('made-up', browser)).rejects.toThrow(/unknown or already used/);
  });

  it('refuses a sign-in that took longer than ten minutes, and sweeps old ones', async () => {
    const state = await states.issue(browser, null, 'v');
    clock.advance(10 * MINUTE);
    await expect(states.redeem(state, browser)).rejects.toThrow(/took too long/);
    await states.issue(new MemorySignInSlot(), null, 'a');
    clock.advance(11 * MINUTE);
    await states.issue(new MemorySignInSlot(), null, 'b');
    expect(attempts.rows.size).toBe(1);
  });
});
