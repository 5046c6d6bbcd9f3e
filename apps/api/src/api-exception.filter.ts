import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { isConnectionError } from '@app/persistence';

/** Status for each domain error `code` (see libs/shared errors and the contexts' *.errors.ts). */
const STATUS_BY_CODE: Record<string, number> = {
  VALIDATION_ERROR: HttpStatus.BAD_REQUEST,
  IMPORT_FILE_ERROR: HttpStatus.BAD_REQUEST,
  AUTHENTICATION_REQUIRED: HttpStatus.UNAUTHORIZED,
  ACCESS_DENIED: HttpStatus.FORBIDDEN,
  NOT_FOUND: HttpStatus.NOT_FOUND,
  CONFLICT: HttpStatus.CONFLICT,
  PAYLOAD_TOO_LARGE: HttpStatus.PAYLOAD_TOO_LARGE,
  TOO_MANY_REQUESTS: HttpStatus.TOO_MANY_REQUESTS,
  SERVICE_BUSY: HttpStatus.SERVICE_UNAVAILABLE,
  DATABASE_UNAVAILABLE: HttpStatus.INTERNAL_SERVER_ERROR,
  // The portfolio's market-data provider: no API key configured (503), or no usable answer from it (502).
  MARKET_DATA_NOT_CONFIGURED: HttpStatus.SERVICE_UNAVAILABLE,
  MARKET_DATA_UNAVAILABLE: HttpStatus.BAD_GATEWAY,
};

export interface ErrorBody {
  success: false;
  error: string;
  redirect_to_login?: true;
}

/** Turns any thrown error into the contract's `{success:false, error}` body; never a stack trace. */
export function errorResponse(exception: unknown, logger: Logger): { status: number; body: ErrorBody } {
  const code = (exception as { code?: unknown } | null)?.code;
  if (exception instanceof Error && typeof code === 'string' && code in STATUS_BY_CODE) {
    const status = STATUS_BY_CODE[code];
    const body: ErrorBody = { success: false, error: exception.message };
    if (status === HttpStatus.UNAUTHORIZED) body.redirect_to_login = true;
    return { status, body };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    return { status, body: { success: false, error: httpMessage(exception, status) } };
  }
  if (isConnectionError(exception)) {
    logger.warn(`database unreachable: ${(exception as Error).message}`);
    return { status: 500, body: { success: false, error: 'Database connection failed' } };
  }
  // Fastify's own errors (body parsing, content types, limits) carry their status.
  const statusCode = (exception as { statusCode?: unknown } | null)?.statusCode;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return { status: statusCode, body: { success: false, error: fastifyMessage(exception as Error, statusCode) } };
  }
  logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
  return { status: 500, body: { success: false, error: 'Internal server error' } };
}

@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { status, body } = errorResponse(exception, this.logger);
    if (reply.sent) return;
    void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
  }
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
