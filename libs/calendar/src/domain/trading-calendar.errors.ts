// Typed input errors of the trading calendar. They know nothing about HTTP: the app's global filter maps
// `code: 'VALIDATION_ERROR'` to a 400 response with the message as the error text.

export const MIN_SUPPORTED_YEAR = 1998; // first year Martin Luther King Jr. Day closed the NYSE
export const MAX_SUPPORTED_YEAR = 2100;

export class InvalidYearError extends Error {
  readonly code = 'VALIDATION_ERROR';

  constructor(
    readonly input: string,
    message = `Invalid year: '${input}'. Use a four-digit year such as 2025`,
  ) {
    super(message);
    this.name = 'InvalidYearError';
  }

  static outOfRange(year: number): InvalidYearError {
    return new InvalidYearError(
      String(year),
      `Unsupported year: ${year}. The NYSE calendar covers ${MIN_SUPPORTED_YEAR} to ${MAX_SUPPORTED_YEAR}`,
    );
  }
}

export class InvalidMonthError extends Error {
  readonly code = 'VALIDATION_ERROR';

  constructor(readonly input: string) {
    super(`Invalid month: '${input}'. Use a month number from 1 to 12`);
    this.name = 'InvalidMonthError';
  }
}

export class InvalidDateError extends Error {
  readonly code = 'VALIDATION_ERROR';

  constructor(readonly input: string) {
    super(`Invalid date: '${input}'. Use YYYY-MM-DD`);
    this.name = 'InvalidDateError';
  }
}
