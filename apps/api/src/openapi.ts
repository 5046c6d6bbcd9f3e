import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { authSchemas, SESSION_COOKIE } from '@app/auth';
import { calendarSchemas } from '@app/calendar';
import { healthSchemas } from '@app/health';
import { importSchemas } from '@app/import';
import { portfolioSchemas } from '@app/portfolio';
import { type AppConfig } from '@app/shared';
import { ERROR_SCHEMA, ref, SESSION_COOKIE_SCHEME, sharedSchemas } from '@app/shared/openapi';
import { journalSchemas, tradesSchemas } from '@app/trades';
import { AppModule } from './app.module.js';

/** Where the document and the explorer are served (public, same origin). */
export const OPENAPI_DOCUMENT_PATH = '/api/openapi.json';
export const OPENAPI_EXPLORER_PATH = '/api/docs';

/** The committed copies, relative to the repository: the document and the web app's types made from it. */
export const OPENAPI_FILE = 'docs/openapi.json';
export const WEB_TYPES_FILE = 'apps/web/src/api/schema.ts';

const API_VERSION = '1.0.0';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * The OpenAPI 3.1 document of every route: @nestjs/swagger reads the controllers' decorators, the
 * contexts add their response bodies to `components.schemas`, and every operation answers failures
 * it does not list with the error body (`default`). Built from the modules alone: `app` may be a
 * preview application that never connected to a database.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Stocks trading analysis')
    .setDescription(
      'Completed trades, dividends, statistics and a priced portfolio from the CSV files a broker exports. ' +
        'Sign in at `/login` in the same browser: the API then uses the `session` cookie. ' +
        'The narrative (formats, rules, examples) is docs/api.md.',
    )
    .setVersion(API_VERSION)
    .addCookieAuth(SESSION_COOKIE, { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'Set by the sign-in (`/login`); HttpOnly.' }, SESSION_COOKIE_SCHEME)
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
  const schemas = { ...sharedSchemas, ...authSchemas, ...calendarSchemas, ...healthSchemas, ...importSchemas, ...portfolioSchemas, ...tradesSchemas, ...journalSchemas };
  document.components = {
    ...document.components,
    schemas: Object.fromEntries(Object.entries({ ...document.components?.schemas, ...schemas }).sort(([a], [b]) => a.localeCompare(b))),
  };
  for (const path of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = path[method];
      if (operation === undefined) continue;
      operation.responses.default ??= {
        description: 'Any other failure: the error body with its status (400 a malformed address, 413 too large, …).',
        content: { 'application/json': { schema: ref(ERROR_SCHEMA) } },
      };
    }
  }
  return document;
}

/**
 * `GET /api/openapi.json` and Swagger UI at `/api/docs`, both public; "Try it out" sends the browser's
 * session cookie. The document is built on its first request, not at start-up, then kept.
 */
export function serveOpenApi(app: NestFastifyApplication): void {
  let text: string | undefined;
  let document: OpenAPIObject | undefined;
  const built = (): OpenAPIObject => (document ??= buildOpenApiDocument(app));
  SwaggerModule.setup(OPENAPI_EXPLORER_PATH.slice(1), app, built, {
    raw: false,
    customSiteTitle: 'Stocks trading analysis API',
    swaggerOptions: { withCredentials: true, persistAuthorization: false, tryItOutEnabled: false },
  });
  // The document changes only with a new version of the service: browsers and tools may keep it a while.
  app
    .getHttpAdapter()
    .getInstance()
    .get(OPENAPI_DOCUMENT_PATH, (_request, reply) => {
      text ??= JSON.stringify(built());
      return reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'public, max-age=300').send(text);
    });
}

/**
 * The document without a running service: the modules in Nest's preview mode, which wires the
 * routes but creates no provider (no database, no identity provider). For the committed copy.
 */
export async function previewOpenApiDocument(config: AppConfig): Promise<OpenAPIObject> {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), new FastifyAdapter(), { preview: true, logger: false });
  try {
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}

/** The document as committed: two-space JSON with a final newline. */
export function documentText(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
