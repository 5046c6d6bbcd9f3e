import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DEV_IDP_PATH, type DevelopmentIdentityProvider, type InteractionResponse } from './development-identity-provider.js';

const FORM_LIMIT_BYTES = 4096;

/**
 * Serves the built-in provider under /dev-idp on the service's own Fastify server. The routes live
 * in a plugin scope without body parsers: oidc-provider reads request bodies itself, from the raw stream.
 */
export function mountDevelopmentIdentityProvider(fastify: FastifyInstance, provider: DevelopmentIdentityProvider): void {
  void fastify.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

    scope.get<{ Params: { uid: string } }>(`${DEV_IDP_PATH}/interaction/:uid`, (request, reply) =>
      hijacked(reply, async () => send(reply, await provider.showInteraction(request.params.uid, request.raw, reply.raw))),
    );

    scope.post<{ Params: { uid: string } }>(`${DEV_IDP_PATH}/interaction/:uid`, (request, reply) =>
      hijacked(reply, async () => {
        const form = await readForm(request.raw);
        send(reply, await provider.submitLogin(request.params.uid, form?.get('email') ?? undefined, request.raw, reply.raw));
      }),
    );

    scope.all(`${DEV_IDP_PATH}/*`, (request, reply) => hijacked(reply, () => provider.handle(request.raw, reply.raw)));
  });
}

/** The provider writes to the Node response itself, so Fastify steps aside; failures still get an answer. */
async function hijacked(reply: FastifyReply, work: () => Promise<void>): Promise<void> {
  reply.hijack();
  try {
    await work();
  } catch (error) {
    reply.log.error({ err: error }, 'development identity provider failed');
    if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
    if (!reply.raw.writableEnded) reply.raw.end('Internal error of the development identity provider');
  }
}

function send(reply: FastifyReply, response: InteractionResponse): void {
  if ('written' in response) return;
  const body = Buffer.from(response.html);
  reply.raw.writeHead(response.status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': body.length,
    'cache-control': 'no-store',
  });
  reply.raw.end(body);
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_LIMIT_BYTES) return undefined;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
