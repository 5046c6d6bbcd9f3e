/**
 * A sign-in started at /login and not yet finished: what the callback must check (the nonce) and
 * prove (the PKCE code verifier). `id` is the SHA-256 of the `state` value, never the value.
 */
export interface SignInAttempt {
  id: string;
  nonce: string | null;
  codeVerifier: string;
  createdAt: Date;
  expiresAt: Date;
}

export abstract class SignInAttempts {
  abstract save(attempt: SignInAttempt): Promise<void>;
  /** Removes the attempt and returns it: whoever takes it first gets it, every later take gets null. */
  abstract take(id: string): Promise<SignInAttempt | null>;
  abstract deleteExpired(now: Date): Promise<number>;
}
