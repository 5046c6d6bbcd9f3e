import type { VerifiedIdentity } from '../domain/verified-identity.js';

/**
 * The one value a browser keeps between /login and /auth/callback (inside its encrypted session
 * cookie): the `state` handle of the sign-in it started. It binds a callback to the browser that
 * began the sign-in.
 */
export interface BrowserSignInSlot {
  read(): string | undefined;
  write(handle: string | undefined): void;
}

/** The query string the provider sent the browser back with. */
export type CallbackQuery = Record<string, string | string[] | undefined>;

/** An OpenID Connect provider, reached through the authorization-code flow. */
export abstract class IdentityProvider {
  /** Starts a sign-in for this browser; returns the provider address to send it to. */
  abstract startSignIn(browser: BrowserSignInSlot): Promise<string>;
  /**
   * Finishes the sign-in the browser started: checks the state, exchanges the code (server to
   * server), checks the ID token. The provider's tokens go no further than this call.
   */
  abstract completeSignIn(query: CallbackQuery, browser: BrowserSignInSlot): Promise<VerifiedIdentity>;
}
