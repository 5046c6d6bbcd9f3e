import { ConflictError, DomainError, NotFoundError, ValidationError } from '@app/shared/domain';

export class HoldingNotFoundError extends NotFoundError {
  constructor() {
    super('Holding not found');
  }
}

export class SnapshotNotFoundError extends NotFoundError {
  constructor() {
    super('Snapshot not found');
  }
}

export class DuplicateHoldingError extends ConflictError {
  constructor(readonly symbol: string) {
    super(`A holding for ${symbol} exists already; change it with PUT /api/portfolio/holdings/{id}`);
  }
}

/** The holdings CSV as a whole cannot be read (not CSV, no header, required columns missing). */
export class HoldingsFileError extends ValidationError {}

/** No API key for the market-data provider is configured (FINNHUB_API_KEY). */
export class MarketDataNotConfiguredError extends DomainError {
  readonly code = 'MARKET_DATA_NOT_CONFIGURED';

  constructor() {
    super('Market-data provider API key not configured');
  }
}

/** The provider could not give an answer: timeout, rate limit after retries, refused key, outage. */
export class MarketDataUnavailableError extends DomainError {
  readonly code = 'MARKET_DATA_UNAVAILABLE';

  constructor(
    message: string,
    readonly reason: 'timeout' | 'rate_limited' | 'rejected_key' | 'unavailable',
  ) {
    super(message);
  }
}

export class SymbolNotFoundError extends NotFoundError {
  constructor(readonly symbol: string) {
    super(`Symbol not found: ${symbol}`);
  }
}

export class PositionNotFoundError extends NotFoundError {
  constructor(readonly symbol: string) {
    super(`No open position in ${symbol}`);
  }
}
