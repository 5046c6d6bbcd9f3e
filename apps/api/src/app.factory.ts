import { ConsoleLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import multipart from '@fastify/multipart';
import type { FastifyServerOptions } from 'fastify';
import { configureAuthHttp } from '@app/auth';
import { AppConfig } from '@app/shared';
import { AppModule } from './app.module.js';
import { frameworkErrors, installRequestGuards } from './request-guards.js';
import { serveWebAssets } from './web/serve-web-assets.js';

/**
 * Builds the application: Fastify with structured request logs and the modules. Nest routes Fastify's
 * own errors (body parsing, limits) through the same global filter as everything else.
 */
export async function createApp(config: AppConfig): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({ logger: requestLogger(config), trustProxy: config.isProduction, frameworkErrors });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, {
    logger: new ConsoleLogger({ json: config.isProduction, logLevels: nestLogLevels(config) }),
  });
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

  return app;
}

/** Fastify's pino request log: method, path, status, time; never cookies, headers or sign-in codes. */
function requestLogger(config: AppConfig): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: { paths: ['req.headers', 'res.headers'], remove: true },
    serializers: {
      req: (request: { method: string; url: string; ip?: string }) => ({
        method: request.method,
        // Query strings of the sign-in paths (and of the built-in provider) carry codes, state and nonce values.
        url: /^\/(auth|dev-idp)\//.test(request.url) ? request.url.split('?')[0] : request.url,
        remoteAddress: request.ip,
      }),
      res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
    },
  };
}

function nestLogLevels(config: AppConfig): ('fatal' | 'error' | 'warn' | 'log' | 'debug' | 'verbose')[] {
  const order = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'] as const;
  const cut = { fatal: 1, error: 2, warn: 3, info: 4, debug: 5, trace: 6, silent: 0 }[config.logLevel];
  return order.slice(0, cut);
}
