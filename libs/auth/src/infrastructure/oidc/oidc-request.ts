import type { BrowserSignInSlot, CallbackQuery } from '../../application/identity-provider.port.js';
import type { SignInStateError } from '../../domain/auth.errors.js';

/**
 * The request object handed to passport: the strategy reads `query` (callback parameters); the
 * state store reaches the browser's sign-in slot and leaves the redeemed verifier for the token request.
 */
export interface OidcRequest {
  query: CallbackQuery;
  headers: Record<string, string>;
  url: string;
  signIn: {
    browser: BrowserSignInSlot;
    /** Set at /login before the state is stored; set at the callback once the state is redeemed. */
    codeVerifier?: string;
    /** Why the state was refused, when it was. */
    stateError?: SignInStateError;
  };
}
