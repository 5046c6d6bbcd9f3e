import { BadRequestException, Logger, NotFoundException } from '@nestjs/common';
import {
  AccessDeniedError,
  AuthenticationRequiredError,
  ConflictError,
  DatabaseUnavailableError,
  NotFoundError,
  PayloadTooLargeError,
  ValidationError,
} from '@app/shared';
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

  it('hides the details of anything unexpected behind a generic 500', () => {
    const { status, body } = errorResponse(new TypeError("Cannot read properties of undefined (reading 'x')"), logger);
    expect(status).toBe(500);
    expect(body).toEqual({ success: false, error: 'Internal server error' });
  });
});
