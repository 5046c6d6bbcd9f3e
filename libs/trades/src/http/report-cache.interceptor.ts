import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, lastValueFrom, map, type Observable } from 'rxjs';
import type { AuthenticatedUser } from '@app/shared';
import { ReportResponseCache } from './report-response-cache.js';

/**
 * Serves a report route from the response cache (per signed-in user and request address, checked
 * against the user's report version). Errors are never cached. The body goes out as the cached JSON
 * bytes, gzip-compressed (once per cached body) when the client accepts it.
 */
@Injectable()
export class ReportCacheInterceptor implements NestInterceptor {
  constructor(private readonly cache: ReportResponseCache) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & { user?: AuthenticatedUser }>();
    const user = request.user;
    if (user === undefined || request.method !== 'GET') return next.handle();
    const reply = http.getResponse<FastifyReply>();
    return from(this.cache.response(user.id, request.url, () => lastValueFrom(next.handle()))).pipe(
      map((report) => {
        void reply.header('content-type', 'application/json; charset=utf-8');
        if (!report.compressible) return report.json;
        void reply.header('vary', 'accept-encoding');
        if (!acceptsGzip(request.headers['accept-encoding'])) return report.json;
        void reply.header('content-encoding', 'gzip');
        return report.gzipped();
      }),
    );
  }
}

/** `Accept-Encoding` names gzip (or `*`) without `q=0`. */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  return text.split(',').some((part) => {
    const [coding, ...parameters] = part.trim().toLowerCase().split(';');
    if (coding.trim() !== 'gzip' && coding.trim() !== '*') return false;
    const quality = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith('q='));
    return quality === undefined || Number(quality.slice(2)) > 0;
  });
}
