import { ArgumentsHost, Catch, ExceptionFilter, HttpStatus, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { describeFailure } from '@app/shared';

export interface ErrorBody {
  success: false;
  error: string;
  redirect_to_login?: true;
}

/** Turns any thrown error into the contract's `{success:false, error}` body; never a stack trace. */
export function errorResponse(exception: unknown, logger: Logger): { status: number; body: ErrorBody } {
  const { status, message } = describeFailure(exception, logger);
  const body: ErrorBody = { success: false, error: message };
  if (status === HttpStatus.UNAUTHORIZED) body.redirect_to_login = true;
  return { status, body };
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
