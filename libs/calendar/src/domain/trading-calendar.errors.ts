// Typed input errors of the trading calendar: ValidationErrors, so a 400 with the message as the error text.
import { ValidationError } from '@app/shared/domain';

export const MIN_SUPPORTED_YEAR = 1998; // first year Martin Luther King Jr. Day closed the NYSE
export const MAX_SUPPORTED_YEAR = 2100;

export class InvalidYearError extends ValidationError {
  constructor(
    readonly input: string,
    message = `Invalid year: '${input}'. Use a four-digit year such as 2025`,
  ) {
    super(message);
  }

  static outOfRange(year: number): InvalidYearError {
    return new InvalidYearError(
      String(year),
      `Unsupported year: ${year}. The NYSE calendar covers ${MIN_SUPPORTED_YEAR} to ${MAX_SUPPORTED_YEAR}`,
    );
  }
}

export class InvalidMonthError extends ValidationError {
  constructor(readonly input: string) {
    super(`Invalid month: '${input}'. Use a month number from 1 to 12`);
  }
}

export class InvalidDateError extends ValidationError {
  constructor(readonly input: string) {
    super(`Invalid date: '${input}'. Use YYYY-MM-DD`);
  }
}
