import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** An unguessable opaque value (256 bits, base64url): session tokens, state handles, PKCE verifiers. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What the database keeps instead of a token: a leaked table does not yield working cookies. Taken on
 * every signed-in request, with the one-shot digest (a third of `createHash`'s time: no hash object).
 */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** RFC 7636 S256 code challenge of a verifier. */
export function codeChallengeOf(verifier: string): string {
  return hash('sha256', verifier, 'base64url');
}
