import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vitest/config';

// The browser app. `npm run build` puts it in dist/web, which the API serves (apps/api/src/web).
// `npm run dev:web` serves it with hot reload and forwards the API paths to a service on :3000.
const api = process.env.API_URL ?? 'http://localhost:3000';

/** Writes .br and .gz beside each script and style; the API's static files send them to browsers that accept them. */
function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    writeBundle(options) {
      const assets = join(options.dir!, 'assets');
      for (const name of readdirSync(assets).filter((file) => /\.(js|css)$/.test(file))) {
        const content = readFileSync(join(assets, name));
        writeFileSync(join(assets, `${name}.br`), brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(join(assets, `${name}.gz`), gzipSync(content, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [precompress()],
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: fileURLToPath(new URL('../../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    // The precompress step takes a second or two on purpose (brotli at its best ratio).
    rolldownOptions: { checks: { pluginTimings: false } },
  },
  server: {
    proxy: Object.fromEntries(['/api', '/auth', '/login', '/logout', '/dev-idp', '/health'].map((path) => [path, { target: api, changeOrigin: false }])),
  },
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
  },
});
