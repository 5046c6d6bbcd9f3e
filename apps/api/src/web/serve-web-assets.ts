import { existsSync, readFileSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { WebAppFiles } from './web-app-files.js';

/**
 * The web app's scripts, styles and images under /assets/: file names carry a content hash, so they
 * are cached for a year; brotli or gzip as the browser accepts. Public: they hold no data. A missing
 * file falls through to the JSON 404.
 */
export async function serveWebAssets(app: NestFastifyApplication, files = new WebAppFiles()): Promise<void> {
  if (!files.built) {
    app.getHttpAdapter().getInstance().log.warn('the web app is not built (dist/web): run `npm run build`');
    return;
  }
  await app.register(fastifyStatic, {
    root: files.assetsDirectory,
    prefix: '/assets/',
    decorateReply: false,
    index: false,
    list: false,
    dotfiles: 'deny',
    // The build writes .br and .gz copies of each file (apps/web/vite.config.ts).
    preCompressed: true,
    immutable: true,
    maxAge: '365d',
  });
  // The icon, also where browsers look for it by themselves (the sign-in pages name none).
  const iconFile = `${files.directory}favicon.svg`;
  if (!existsSync(iconFile)) return;
  const icon = readFileSync(iconFile);
  for (const url of ['/favicon.svg', '/favicon.ico']) {
    app
      .getHttpAdapter()
      .getInstance()
      .get(url, (_request, reply) => reply.header('content-type', 'image/svg+xml').header('cache-control', 'public, max-age=86400').send(icon));
  }
}
