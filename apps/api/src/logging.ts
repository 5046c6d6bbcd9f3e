import type { LoggerService } from '@nestjs/common';
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { pino, stdTimeFunctions, type Level, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { AppConfig, AuthenticatedUser } from '@app/shared';

/**
 * The service's one logger (pino): JSON lines in production, for a log collector; readable single
 * lines otherwise. Fastify's request log and Nest's own log both write through it.
 */
export function createLogger(config: AppConfig, destination: NodeJS.WritableStream = process.stdout): Logger {
  const options = { level: config.logLevel, timestamp: stdTimeFunctions.isoTime, base: config.isProduction ? { pid: process.pid } : undefined };
  if (config.isProduction) return pino(options, destination);
  const colorize = (destination as { isTTY?: boolean }).isTTY === true;
  return pino(
    options,
    pretty({
      destination,
      sync: true,
      colorize,
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname,context',
      messageFormat: '{if context}[{context}] {end}{msg}',
    }),
  );
}

/** Nest's bootstrap chatter (each module, route and controller): useful when debugging, not at every start. */
const BOOTSTRAP_CONTEXTS = new Set(['NestFactory', 'NestApplication', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** Nest's logger interface over pino: `new Logger(Context)` anywhere in the service writes here. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    const context = contextOf(rest);
    this.write(context !== undefined && BOOTSTRAP_CONTEXTS.has(context) ? 'debug' : 'info', message, context);
  }

  error(message: unknown, ...rest: unknown[]): void {
    const context = contextOf(rest);
    const stack = typeof rest[0] === 'string' && rest[0].includes('\n    at ') ? rest[0] : undefined;
    this.write('error', message, context, stack === undefined ? {} : { stack });
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, contextOf(rest));
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, contextOf(rest));
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, contextOf(rest));
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, contextOf(rest));
  }

  private write(level: Level, message: unknown, context: string | undefined, extra: Record<string, unknown> = {}): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const fields = { ...extra, ...(context === undefined ? {} : { context }) };
    if (message instanceof Error) this.logger[level]({ ...fields, err: message }, message.message);
    else if (typeof message === 'object' && message !== null) this.logger[level]({ ...fields, ...message });
    else this.logger[level](fields, String(message));
  }
}

/** Nest passes the context last (after a stack, for errors). */
function contextOf(rest: unknown[]): string | undefined {
  const last = rest.at(-1);
  return typeof last === 'string' && !last.includes('\n') ? last : undefined;
}

/**
 * One line per request, when it has been answered: method, path, status, milliseconds and the signed-in
 * user's id; never headers, cookies or bodies. The sign-in paths' query strings (codes, state, nonce)
 * are left out. Health probes are logged at debug level unless they fail: a balancer polls them.
 * (Fastify's own controller logs two lines per request, with the whole request and reply.)
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const path = /^\/(auth|dev-idp)\//.test(request.url) ? request.url.split('?')[0] : request.url;
    const user = (request as FastifyRequest & { user?: AuthenticatedUser }).user;
    const line = { method: request.method, path, status: reply.statusCode, ms: Math.round(reply.elapsedTime), user: user?.id };
    if (error) request.log.error({ ...line, err: error }, 'request failed');
    else if (path.startsWith('/health/') && reply.statusCode < 400) request.log.debug(line, 'request completed');
    else request.log.info(line, 'request completed');
  }
}
