import { normalizeEmail } from './allow-list.js';
import { SignInRejectedError } from './auth.errors.js';

/** Who the identity provider says signed in, once its answer has been checked. */
export interface VerifiedIdentity {
  email: string;
  name: string | null;
}

/** The OpenID Connect claims the service reads (from the ID token and the UserInfo response). */
export interface IdentityClaims {
  sub?: unknown;
  email?: unknown;
  email_verified?: unknown;
  name?: unknown;
  given_name?: unknown;
  family_name?: unknown;
}

const EMAIL = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;

/**
 * The identity behind a provider's claims. The allow-list is a list of e-mail addresses, so an
 * address is required, and one the provider marks as unverified is refused: otherwise anyone able to
 * register that address unverified at the provider could sign in as its owner.
 */
export function identityFromClaims(claims: IdentityClaims): VerifiedIdentity {
  if (typeof claims.email !== 'string' || !EMAIL.test(claims.email.trim())) {
    throw new SignInRejectedError(
      "The identity provider did not return an e-mail address (is the 'email' scope in OIDC_SCOPES?)",
    );
  }
  if (claims.email_verified === false || claims.email_verified === 'false') {
    throw new SignInRejectedError('The identity provider reports this e-mail address as unverified');
  }
  return { email: normalizeEmail(claims.email), name: displayName(claims) };
}

function displayName(claims: IdentityClaims): string | null {
  if (typeof claims.name === 'string' && claims.name.trim() !== '') return claims.name.trim();
  const parts = [claims.given_name, claims.family_name].filter((part): part is string => typeof part === 'string' && part.trim() !== '');
  return parts.length > 0 ? parts.map((part) => part.trim()).join(' ') : null;
}
