import { Logger } from '@nestjs/common';
import { DomainError } from '@app/shared';
import { errorResponse } from './api-exception.filter.js';

/** The portfolio's market-data error codes (libs/portfolio domain/portfolio.errors.ts). */
class CodedError extends DomainError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

describe('errorResponse for market-data failures', () => {
  const logger = new Logger('test');
  beforeAll(() => Logger.overrideLogger(false));

  it('a missing provider key is a 503 with the contract-style message', () => {
    expect(errorResponse(new CodedError('MARKET_DATA_NOT_CONFIGURED', 'Market-data provider API key not configured'), logger)).toEqual({
      status: 503,
      body: { success: false, error: 'Market-data provider API key not configured' },
    });
  });

  it('a provider that gives no usable answer is a 502 that says why', () => {
    expect(errorResponse(new CodedError('MARKET_DATA_UNAVAILABLE', 'Market-data provider rejected the API key'), logger)).toEqual({
      status: 502,
      body: { success: false, error: 'Market-data provider rejected the API key' },
    });
  });
});
