import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import multipart from '@fastify/multipart';
import type { Logger } from 'pino';
import { configureAuthHttp } from '@app/auth';
import { AppConfig } from '@app/shared';
import { AppModule } from './app.module.js';
import { serveOpenApi } from './openapi.js';
import { NestPinoLogger, OneLinePerRequest } from './logging.js';
import { frameworkErrors, installRequestGuards } from './request-guards.js';
import { serveWebAssets } from './web/serve-web-assets.js';

/**
 * Builds the application: Fastify and the modules, both logging through `logger`. Nest routes
 * Fastify's own errors (body parsing, limits) through the same global filter as everything else.
 */
export async function createApp(config: AppConfig, logger: Logger): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({ loggerInstance: logger, logController: new OneLinePerRequest(), trustProxy: config.isProduction, frameworkErrors });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, { logger: new NestPinoLogger(logger) });
  // No NUL in an address; JSON bodies bounded in size and depth before they are parsed.
  installRequestGuards(app);
  // Uploads stay in memory, bounded per file; nothing is written to disk under a user-chosen name.
  await app.register(multipart, {
    limits: { fileSize: config.uploadMaxBytes, files: 4, fields: 10, fieldSize: 1024, parts: 14 },
  });
  // The encrypted `session` cookie, the cross-site check on state-changing requests, the built-in identity provider.
  await configureAuthHttp(app, config);
  // The browser app's scripts and styles (its pages are WebAppModule's routes).
  await serveWebAssets(app);
  // The OpenAPI document of every route and its explorer.
  serveOpenApi(app);

  return app;
}
