import type { FastifyRequest } from 'fastify';
import type { BrowserSignInSlot } from '../application/identity-provider.port.js';

/** The cookie's name, as in the contract's requests. */
export const SESSION_COOKIE = 'session';

const TOKEN = 'sid';
const SIGN_IN = 'signIn';

/**
 * What the browser's encrypted `session` cookie (@fastify/secure-session) holds: the opaque
 * session token, and while a sign-in is under way its state handle. Nothing else, and never
 * anything from the identity provider.
 */
export class SessionCookie {
  private readonly session: CookieData;

  constructor(request: FastifyRequest) {
    this.session = request.session as unknown as CookieData;
  }

  get token(): string | undefined {
    return this.text(TOKEN);
  }

  /** Stores a new session's token (the cookie is re-encrypted and re-sent with the response). */
  signIn(token: string): void {
    this.session.set(TOKEN, token);
  }

  /** Re-sends the cookie with a fresh lifetime, when the server-side session slid forward. */
  renew(): void {
    this.session.touch();
  }

  /** Drops a token the server no longer knows, keeping any sign-in under way. */
  forgetToken(): void {
    if (this.token !== undefined) this.session.set(TOKEN, undefined);
  }

  /** Expires the cookie in the browser. */
  clear(): void {
    this.session.delete();
  }

  get signInSlot(): BrowserSignInSlot {
    return {
      read: () => this.text(SIGN_IN),
      // Unchanged values are not written: the cookie is re-sent only when it changes.
      write: (handle) => {
        if (this.text(SIGN_IN) !== handle) this.session.set(SIGN_IN, handle);
      },
    };
  }

  private text(key: string): string | undefined {
    const value = this.session?.get(key);
    return typeof value === 'string' ? value : undefined;
  }
}

/** The plugin's session object, with string keys (its own typing expects a declared SessionData). */
interface CookieData {
  get(key: string): unknown;
  set(key: string, value: string | undefined): void;
  touch(): void;
  delete(): void;
}
