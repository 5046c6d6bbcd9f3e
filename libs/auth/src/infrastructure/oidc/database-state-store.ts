import { SignInStateError } from '../../domain/auth.errors.js';
import type { SignInStates } from '../../application/sign-in-states.service.js';
import type { StateStore } from './openid-connect.strategy.js';
import type { OidcRequest } from './oidc-request.js';

/**
 * passport-openidconnect's state store, on the database instead of express-session: the state, its
 * nonce and PKCE verifier live in `sign_in_attempts` (see SignInStates); the browser's encrypted
 * cookie holds the handle that binds the callback to it.
 */
export class DatabaseStateStore implements StateStore {
  constructor(private readonly states: SignInStates) {}

  store(req: OidcRequest, ctx: { nonce?: string }, _appState: unknown, _meta: unknown, done: (error: Error | null, handle?: string) => void): void {
    const verifier = req.signIn.codeVerifier ?? '';
    this.states.issue(req.signIn.browser, ctx.nonce ?? null, verifier).then(
      (handle) => done(null, handle),
      (error: unknown) => done(asError(error)),
    );
  }

  verify(req: OidcRequest, handle: string, done: (error: Error | null, ctx?: false | { nonce?: string }, info?: unknown) => void): void {
    this.states.redeem(typeof handle === 'string' ? handle : undefined, req.signIn.browser).then(
      (redeemed) => {
        req.signIn.codeVerifier = redeemed.codeVerifier === '' ? undefined : redeemed.codeVerifier;
        done(null, redeemed.nonce === null ? {} : { nonce: redeemed.nonce });
      },
      (error: unknown) => {
        if (error instanceof SignInStateError) {
          req.signIn.stateError = error;
          done(null, false, { message: error.message });
          return;
        }
        done(asError(error));
      },
    );
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
