import { ValidationError } from '@app/shared/domain';

export const BROKERAGE_ACCOUNT_MAX_LENGTH = 32;
const ALLOWED = /^[A-Za-z0-9 ._-]+$/;
const HAS_ALPHANUMERIC = /[A-Za-z0-9]/;

/**
 * The brokerage account number a user's imports belong to, as the broker prints it
 * (`12345678`, `XXXX-1234`, `...123`): trimmed, inner runs of spaces collapsed.
 */
export function parseBrokerageAccountNumber(raw: unknown): string {
  if (typeof raw !== 'string') throw new ValidationError('brokerage_account must be a string');
  const value = raw.trim().replace(/\s+/g, ' ');
  if (value === '') throw new ValidationError('brokerage_account must not be empty');
  if (value.length > BROKERAGE_ACCOUNT_MAX_LENGTH) {
    throw new ValidationError(`brokerage_account must be at most ${BROKERAGE_ACCOUNT_MAX_LENGTH} characters (got ${value.length})`);
  }
  if (!ALLOWED.test(value) || !HAS_ALPHANUMERIC.test(value)) {
    throw new ValidationError("brokerage_account may contain only letters, digits, spaces, '.', '-' and '_'");
  }
  return value;
}
