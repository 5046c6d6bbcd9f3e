import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest, FastifyServerOptions, RawServerDefault } from 'fastify';

/** JSON bodies: the largest the API takes (a holding, a profile) is well under a kilobyte. */
export const JSON_BODY_LIMIT = 64 * 1024;
/** Nesting levels of a JSON body; the API's bodies have one or two. */
export const JSON_MAX_DEPTH = 20;

const NUL = /%00/i;

/**
 * Every answer's security headers, set before any route runs so that the sign-in pages and the
 * built-in provider's pages (written to the raw response) carry them as the app's pages do.
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; " +
  "font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";
const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};
/** oidc-provider's own pages (its logout confirmation) submit their form with an inline script. */
const PROVIDER_HEADERS: Record<string, string> = {
  ...SECURITY_HEADERS,
  'content-security-policy': CONTENT_SECURITY_POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'"),
};

/** The contract's error body for a request refused before it reaches a route. */
function refuse(reply: FastifyReply, status: number, error: string): void {
  void reply.code(status).header('content-type', 'application/json; charset=utf-8').send({ success: false, error });
}

/**
 * Fastify's router errors (a path with a bad percent-encoding such as `%C0%80`) in the contract's
 * `{success:false, error}` shape instead of Fastify's own body.
 */
export const frameworkErrors: FastifyServerOptions['frameworkErrors'] = (error, _request, reply) => {
  const code = (error as { code?: string }).code;
  if (code === 'FST_ERR_BAD_URL') return refuse(reply, 400, 'The address is not valid: it has a bad percent-encoding');
  if (code === 'FST_ERR_MAX_PARAM_LENGTH') return refuse(reply, 414, 'The address is too long');
  return refuse(reply, 400, 'Bad request');
};

/**
 * Guards that run before any route: the security headers on every answer, no NUL character anywhere in the address (no stored value may
 * hold one and PostgreSQL refuses them), and JSON bodies bounded in size and depth before they are
 * parsed (a deeply nested array would otherwise cost a recursive parse and a stack overflow).
 */
export function installRequestGuards(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const headers = request.url.startsWith('/dev-idp/') ? PROVIDER_HEADERS : SECURITY_HEADERS;
    for (const name in headers) reply.raw.setHeader(name, headers[name]);
    if (NUL.test(request.url)) return refuse(reply, 400, 'The address must not contain a NUL character (%00)');
    done();
  });
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  app.useBodyParser<RawServerDefault>('application/json', { bodyLimit: JSON_BODY_LIMIT }, (request, body, done) => {
    if (jsonDepth(body) > JSON_MAX_DEPTH) {
      return done(Object.assign(new Error(`The request body is nested too deeply (at most ${JSON_MAX_DEPTH} levels)`), { statusCode: 400 }), undefined);
    }
    parseJson(request, body.toString('utf8'), done);
  });
}

/** The deepest nesting of `[` and `{` outside strings; stops counting once past the limit. */
export function jsonDepth(body: Buffer): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < body.length; index += 1) {
    const byte = body[index];
    if (inString) {
      if (byte === 0x5c) index += 1; // a backslash escapes the next character
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) {
      inString = true;
    } else if (byte === 0x5b || byte === 0x7b) {
      depth += 1;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > JSON_MAX_DEPTH) return deepest;
      }
    } else if (byte === 0x5d || byte === 0x7d) {
      depth -= 1;
    }
  }
  return deepest;
}
