import { HttpException, HttpStatus, type Logger } from '@nestjs/common';
import { isConflictingChange, isConnectionError } from '../errors/connection-errors.js';
import { DomainError } from '../errors/domain.errors.js';

/**
 * The one table from a domain error's `code` to its HTTP status. Every `DomainError` of every context
 * has its code here (failures.spec.ts checks them all); nothing below `http/` knows a status.
 */
export const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  VALIDATION_ERROR: HttpStatus.BAD_REQUEST,
  AUTHENTICATION_REQUIRED: HttpStatus.UNAUTHORIZED,
  ACCESS_DENIED: HttpStatus.FORBIDDEN,
  NOT_FOUND: HttpStatus.NOT_FOUND,
  CONFLICT: HttpStatus.CONFLICT,
  PAYLOAD_TOO_LARGE: HttpStatus.PAYLOAD_TOO_LARGE,
  TOO_MANY_REQUESTS: HttpStatus.TOO_MANY_REQUESTS,
  SERVICE_BUSY: HttpStatus.SERVICE_UNAVAILABLE,
  // The contract answers an unreachable database with a 500 and this message.
  DATABASE_UNAVAILABLE: HttpStatus.INTERNAL_SERVER_ERROR,
  // Sign-in: the identity provider cannot be reached or answers nonsense.
  IDENTITY_PROVIDER_UNAVAILABLE: HttpStatus.BAD_GATEWAY,
  // The portfolio's market-data provider: no API key configured (503), or no usable answer from it (502).
  MARKET_DATA_NOT_CONFIGURED: HttpStatus.SERVICE_UNAVAILABLE,
  MARKET_DATA_UNAVAILABLE: HttpStatus.BAD_GATEWAY,
};

/** What a failed request answers: a status and a message a person can read (never a stack trace). */
export interface Failure {
  status: number;
  message: string;
}

export const INTERNAL_ERROR = 'Internal server error';
export const DATABASE_CONNECTION_FAILED = 'Database connection failed';
export const CONFLICTING_CHANGE = 'Another change to the same data got in the way, and this one was undone: try again';

/**
 * Describes any thrown value as a failure, the same way for a JSON answer (the global filter) and for
 * a stream that has already started (the import's NDJSON). Only what is unexpected is logged, with its
 * stack; its message stays in the log and `internalMessage` is answered instead.
 */
export function describeFailure(error: unknown, logger: Pick<Logger, 'error' | 'warn'>, internalMessage = INTERNAL_ERROR): Failure {
  if (error instanceof DomainError) {
    const status = STATUS_BY_CODE[error.code];
    if (status !== undefined) return { status, message: error.message };
  } else if (error instanceof HttpException) {
    const status = error.getStatus();
    return { status, message: httpMessage(error, status) };
  } else if (isConnectionError(error)) {
    logger.warn(`database unreachable: ${(error as Error).message}`);
    return { status: HttpStatus.INTERNAL_SERVER_ERROR, message: DATABASE_CONNECTION_FAILED };
  } else if (isConflictingChange(error)) {
    // Two writers met (say, tags changed on trades an import is rewriting): the database undid one.
    logger.warn(`a change met another and was rolled back: ${(error as Error).message}`);
    return { status: HttpStatus.SERVICE_UNAVAILABLE, message: CONFLICTING_CHANGE };
  } else {
    // Fastify's own errors (body parsing, content types, limits) carry their status.
    const statusCode = (error as { statusCode?: unknown } | null)?.statusCode;
    if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
      return { status: statusCode, message: fastifyMessage(error as Error, statusCode) };
    }
  }
  logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return { status: HttpStatus.INTERNAL_SERVER_ERROR, message: internalMessage };
}

function httpMessage(exception: HttpException, status: number): string {
  if (status === HttpStatus.NOT_FOUND) return 'Not found';
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : exception.message;
}

function fastifyMessage(error: Error, status: number): string {
  if (status === HttpStatus.PAYLOAD_TOO_LARGE) return 'Request body is too large';
  if (status === HttpStatus.UNSUPPORTED_MEDIA_TYPE) return 'Unsupported content type';
  return error.message;
}
