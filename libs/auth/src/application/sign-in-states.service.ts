import { Injectable } from '@nestjs/common';
import { Clock } from '@app/calendar';
import { SignInStateError } from '../domain/auth.errors.js';
import { AuthSettings } from './auth-settings.js';
import type { BrowserSignInSlot } from './identity-provider.port.js';
import { hashToken, randomToken, sameToken } from './secrets.js';
import { SignInAttempts } from './sign-in-attempts.port.js';

/** What a redeemed state hands back to the code exchange. */
export interface RedeemedSignIn {
  nonce: string | null;
  codeVerifier: string;
}

/**
 * The OAuth `state` of each sign-in: random, kept server-side (hashed) with the nonce and the PKCE
 * verifier, valid for a few minutes, usable once, and accepted only from the browser that started it
 * (its encrypted cookie holds the same handle).
 */
@Injectable()
export class SignInStates {
  constructor(
    private readonly attempts: SignInAttempts,
    private readonly settings: AuthSettings,
    private readonly clock: Clock,
  ) {}

  async issue(browser: BrowserSignInSlot, nonce: string | null, codeVerifier: string): Promise<string> {
    const now = this.clock.now();
    await this.attempts.deleteExpired(now);
    const handle = randomToken();
    await this.attempts.save({
      id: hashToken(handle),
      nonce,
      codeVerifier,
      createdAt: now,
      expiresAt: new Date(now.getTime() + this.settings.signInWindowMs),
    });
    // One pending sign-in per browser: starting again replaces the previous one.
    browser.write(handle);
    return handle;
  }

  /** Consumes the state: whatever the outcome, neither this browser nor anyone else can use it again. */
  async redeem(state: string | undefined, browser: BrowserSignInSlot): Promise<RedeemedSignIn> {
    const expected = browser.read();
    browser.write(undefined);
    if (state === undefined || state === '') throw new SignInStateError('Invalid sign-in request: the state is missing.');
    const attempt = await this.attempts.take(hashToken(state));
    if (attempt === null) {
      throw new SignInStateError('Invalid sign-in request: the state is unknown or already used. Start again at /login.');
    }
    if (expected === undefined || !sameToken(state, expected)) {
      throw new SignInStateError('Invalid sign-in request: the state does not belong to this browser. Start again at /login.');
    }
    if (this.clock.now().getTime() >= attempt.expiresAt.getTime()) {
      throw new SignInStateError('Invalid sign-in request: the sign-in took too long and expired. Start again at /login.');
    }
    return { nonce: attempt.nonce, codeVerifier: attempt.codeVerifier };
  }
}
