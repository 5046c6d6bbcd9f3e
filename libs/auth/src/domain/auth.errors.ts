import { AccessDeniedError, DomainError, ValidationError } from '@app/shared/domain';

/**
 * The callback's `state` is missing, unknown, already used, expired, or not the one this browser
 * started: the request is refused and nothing is signed in (400).
 */
export class SignInStateError extends ValidationError {
  constructor(message = 'Invalid sign-in request: the state is missing, expired or already used. Start again at /login.') {
    super(message);
  }
}

/**
 * The provider's answer cannot be accepted: an error or refusal from the provider, a code it did
 * not take, an ID token that fails its checks, no usable e-mail address (400).
 */
export class SignInRejectedError extends ValidationError {}

/** The identity provider cannot be reached or answers nonsense; nothing the user can fix. */
export class IdentityProviderUnavailableError extends DomainError {
  readonly code = 'IDENTITY_PROVIDER_UNAVAILABLE';
}

/**
 * The provider signed in an address that is not on the allow-list (403, the contract's message). The
 * address is kept for the browser's page, which names it; API clients get the contract's JSON.
 */
export class AddressNotAllowedError extends AccessDeniedError {
  constructor(readonly email: string) {
    super();
  }
}
