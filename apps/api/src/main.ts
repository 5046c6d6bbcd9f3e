import 'reflect-metadata';
import { mkdir } from 'node:fs/promises';
import { signInHint } from '@app/auth';
import { ConfigError, limitHeapGrowth, loadConfig, loadDotEnv, type AppConfig } from '@app/shared';
import { createApp } from './app.factory.js';
import { createLogger } from './logging.js';

async function main(): Promise<void> {
  // Before anything large is allocated: a large import's peak memory (libs/shared runtime).
  limitHeapGrowth();
  loadDotEnv();
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  await mkdir(config.dataDir, { recursive: true });

  const logger = createLogger(config);
  const app = await createApp(config, logger);
  // A promise nobody awaited failed (a stream's late error, say): the request it belonged to has
  // already answered or failed on its own, so log it and keep serving everyone else.
  process.on('unhandledRejection', (reason: unknown) => {
    logger.error({ err: reason }, 'unhandled promise rejection');
  });
  await app.listen({ port: config.port, host: config.host });
  // Fastify has logged the address it listens on; the last start-up line says how to sign in.
  logger.info(signInHint(config));

  // Graceful shutdown: readiness turns 503, in-flight requests finish, then the database closes.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      app.close().then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`Shutdown failed: ${error instanceof Error ? error.message : String(error)}\n`);
          process.exit(1);
        },
      );
    });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`Start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
