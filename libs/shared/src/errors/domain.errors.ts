/**
 * Typed errors the domain and application layers throw. Each carries a stable `code`;
 * the HTTP layer (one global filter) maps codes to statuses, nothing below `http/` knows HTTP.
 */
export abstract class DomainError extends Error {
  abstract readonly code: string;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The request is malformed or a value is out of range (400). */
export class ValidationError extends DomainError {
  readonly code = 'VALIDATION_ERROR';
}

/** The resource does not exist, or belongs to someone else (404). */
export class NotFoundError extends DomainError {
  readonly code = 'NOT_FOUND';
}

/** An account number the user has no brokerage account with, another user's included (404): a report's filter, an account's removal. */
export function unknownAccount(number: string): NotFoundError {
  return new NotFoundError(`You have no brokerage account numbered ${JSON.stringify(number.trim().slice(0, 40))}`);
}

/** The request conflicts with existing data, e.g. a duplicate (409). */
export class ConflictError extends DomainError {
  readonly code = 'CONFLICT';
}

/** An uploaded file or body is larger than allowed (413). */
export class PayloadTooLargeError extends DomainError {
  readonly code = 'PAYLOAD_TOO_LARGE';
}

/** This user sends too much at once; worth retrying shortly (429). */
export class TooManyRequestsError extends DomainError {
  readonly code = 'TOO_MANY_REQUESTS';
}

/** The service is at a capacity limit shared by everyone; worth retrying shortly (503). */
export class ServiceBusyError extends DomainError {
  readonly code = 'SERVICE_BUSY';
}

/** No valid session (401). */
export class AuthenticationRequiredError extends DomainError {
  readonly code = 'AUTHENTICATION_REQUIRED';

  constructor(message = 'Authentication required') {
    super(message);
  }
}

/** Signed in, but not on the allow-list (403). */
export class AccessDeniedError extends DomainError {
  readonly code = 'ACCESS_DENIED';

  constructor(message = 'Access denied. User not authorized.') {
    super(message);
  }
}

/** The database cannot be reached right now (500, the contract's message). */
export class DatabaseUnavailableError extends DomainError {
  readonly code = 'DATABASE_UNAVAILABLE';

  constructor(message = 'Database connection failed') {
    super(message);
  }
}

/** Every class above, for code that makes an error again by its class name (`fromThreadError`). */
export const DOMAIN_ERROR_CLASSES = [
  ValidationError,
  NotFoundError,
  ConflictError,
  PayloadTooLargeError,
  TooManyRequestsError,
  ServiceBusyError,
  AuthenticationRequiredError,
  AccessDeniedError,
  DatabaseUnavailableError,
] as const;
