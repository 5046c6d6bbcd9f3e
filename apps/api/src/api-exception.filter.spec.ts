import { BadRequestException, Logger, NotFoundException } from '@nestjs/common';
import {
  AccessDeniedError,
  AuthenticationRequiredError,
  ConflictError,
  DatabaseUnavailableError,
  DomainError,
  NotFoundError,
  PayloadTooLargeError,
  STATUS_BY_CODE,
  ValidationError,
} from '@app/shared';
import { IdentityProviderUnavailableError } from '@app/auth';
import { InvalidMonthError } from '@app/calendar';
import { ImportFileError } from '@app/import';
import { MarketDataNotConfiguredError, MarketDataUnavailableError } from '@app/portfolio';
import { errorResponse } from './api-exception.filter.js';

describe('errorResponse', () => {
  const logger = new Logger('test');
  beforeAll(() => Logger.overrideLogger(false));

  it.each([
    [new ValidationError('Invalid month: 2024-13'), 400, 'Invalid month: 2024-13'],
    [new NotFoundError('Symbol not found'), 404, 'Symbol not found'],
    [new ConflictError('A holding for AAPL exists already'), 409, 'A holding for AAPL exists already'],
    [new PayloadTooLargeError('File too large'), 413, 'File too large'],
    [new AccessDeniedError(), 403, 'Access denied. User not authorized.'],
    [new DatabaseUnavailableError(), 500, 'Database connection failed'],
    [new InvalidMonthError('13'), 400, "Invalid month: '13'. Use a month number from 1 to 12"],
    [new ImportFileError('IMPORT_NO_DATA_ROWS', 'a.csv', 2, 'no rows'), 400, 'a.csv, line 2: no rows'],
    [new IdentityProviderUnavailableError('The identity provider could not be reached'), 502, 'The identity provider could not be reached'],
    [new MarketDataNotConfiguredError(), 503, 'Market-data provider API key not configured'],
    [new MarketDataUnavailableError('Market-data provider rejected the API key', 'rejected_key'), 502, 'Market-data provider rejected the API key'],
  ])('maps %p to %i', (error, status, message) => {
    expect(errorResponse(error, logger)).toEqual({ status, body: { success: false, error: message } });
  });

  it('adds redirect_to_login to the 401 body', () => {
    expect(errorResponse(new AuthenticationRequiredError(), logger)).toEqual({
      status: 401,
      body: { success: false, error: 'Authentication required', redirect_to_login: true },
    });
  });

  it('keeps the message of framework HTTP errors, and says "Not found" for unknown routes', () => {
    expect(errorResponse(new BadRequestException('date is required'), logger).body.error).toBe('date is required');
    expect(errorResponse(new NotFoundException('Cannot GET /api/x'), logger)).toEqual({
      status: 404,
      body: { success: false, error: 'Not found' },
    });
  });

  it('turns a lost database connection into the contract 500', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(errorResponse(refused, logger)).toEqual({ status: 500, body: { success: false, error: 'Database connection failed' } });
  });

  it('answers a change the database undid (a deadlock, a serialization failure) with a 503 that says to try again', () => {
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    expect(errorResponse(deadlock, logger)).toEqual({
      status: 503,
      body: { success: false, error: 'Another change to the same data got in the way, and this one was undone: try again' },
    });
  });

  it('hides the details of anything unexpected behind a generic 500', () => {
    const { status, body } = errorResponse(new TypeError("Cannot read properties of undefined (reading 'x')"), logger);
    expect(status).toBe(500);
    expect(body).toEqual({ success: false, error: 'Internal server error' });
  });

  it('knows the status of every domain error any context exports', async () => {
    const contexts = ['shared', 'auth', 'calendar', 'export', 'import', 'portfolio', 'trades'];
    const unmapped: string[] = [];
    let checked = 0;
    for (const context of contexts) {
      const exported: Record<string, unknown> = await import(`@app/${context}`);
      for (const [name, value] of Object.entries(exported)) {
        if (typeof value !== 'function' || !(value.prototype instanceof DomainError)) continue;
        const code = (Reflect.construct(value, ['x', 'x', 1, 'x']) as DomainError).code;
        checked += 1;
        if (!(code in STATUS_BY_CODE)) unmapped.push(`${context}: ${name} (${code})`);
      }
    }
    expect(unmapped).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });
});
