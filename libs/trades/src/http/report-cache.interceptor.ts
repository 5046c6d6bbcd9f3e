import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, lastValueFrom, map, type Observable } from 'rxjs';
import type { AuthenticatedUser } from '@app/shared';
import { ReportResponseCache, type CachedReport } from './report-response-cache.js';

/**
 * Serves a report route from the response cache (per signed-in user and request address, checked
 * against the user's report version). Errors are never cached. The body goes out as the cached JSON
 * bytes, compressed (once per cached body) when the client accepts it: Brotli once its form is ready,
 * gzip until then.
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
      map((report) => cachedReportBody(request, reply, report)),
    );
  }
}

/** The body to send for a cached report: its JSON, or a compressed form the client accepts (headers set). */
export function cachedReportBody(request: FastifyRequest, reply: FastifyReply, report: CachedReport): Buffer {
  void reply.header('content-type', 'application/json; charset=utf-8');
  if (!report.compressible) return report.json;
  void reply.header('vary', 'accept-encoding');
  const accepted = acceptedEncodings(request.headers['accept-encoding']);
  const brotli = accepted.has('br') ? report.brotli() : undefined;
  if (brotli !== undefined) {
    void reply.header('content-encoding', 'br');
    return brotli;
  }
  if (!accepted.has('gzip')) return report.json;
  void reply.header('content-encoding', 'gzip');
  return report.gzipped();
}

/** The codings of `Accept-Encoding` this service can send (`br`, `gzip`), without `q=0`; `*` stands for
 * those it does not name. A client sends the same header with every request: the last header's
 * answer is kept, and only another header is read again (reading it was 1.5% of a cached report's time). */
export function acceptedEncodings(header: string | string[] | undefined): ReadonlySet<'br' | 'gzip'> {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  if (text !== lastRead.header) lastRead = { header: text, accepted: readAcceptEncoding(text) };
  return lastRead.accepted;
}

let lastRead: { header: string; accepted: ReadonlySet<'br' | 'gzip'> } = { header: '', accepted: new Set() };

function readAcceptEncoding(text: string): ReadonlySet<'br' | 'gzip'> {
  const accepted = new Set<'br' | 'gzip'>();
  const named = new Set<string>();
  let wildcard = false;
  for (const part of text.split(',')) {
    const [coding, ...parameters] = part.trim().toLowerCase().split(';');
    const name = coding.trim();
    named.add(name);
    const quality = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith('q='));
    if (quality !== undefined && !(Number(quality.slice(2)) > 0)) continue;
    if (name === 'br' || name === 'gzip') accepted.add(name);
    if (name === '*') wildcard = true;
  }
  // `*` covers only the codings the header does not name itself.
  if (wildcard) for (const name of ['br', 'gzip'] as const) if (!named.has(name)) accepted.add(name);
  return accepted;
}
