import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { MIGRATIONS } from '@app/persistence';
import { runUntilExit, SERVICE_ENV, SERVICE_NODE_FLAGS, startService, waitUntil } from './support/service.js';
import { signIn } from './support/sign-in.js';
import { withClient } from './support/test-database.js';
import { exampleFiles, ndjson, uploadForm } from './support/uploads.js';

describe('start-up', () => {
  it.each([
    [{ PORT: 'abc' }, /^Invalid configuration: PORT must be a whole number from 0 to 65535 \(got 'abc'\)$/m],
    [{ SESSION_IDLE_MINUTES: '-5' }, /^Invalid configuration: SESSION_IDLE_MINUTES /m],
    [{ DATABASE_URL: 'mysql://db/test' }, /^Invalid configuration: DATABASE_URL must start with postgres:\/\/ or postgresql:\/\/$/m],
    [{ NODE_ENV: 'production', PUBLIC_URL: 'https://journal.example.com' }, /^Invalid configuration: SESSION_SECRET is required in production/m],
    [{ AUTHORIZED_USERS: 'alice@example.com, bob' }, /^Invalid configuration: AUTHORIZED_USERS .*'bob'/m],
  ])('refuses to start on %j with one clear line and a non-zero exit', async (env, message) => {
    const { code, output } = await runUntilExit(env);
    expect(code).not.toBe(0);
    expect(output).toMatch(message);
    expect(output.trim().split('\n')).toHaveLength(1);
  });

  it('applies the migrations to an empty embedded database, and a second start applies nothing again', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sta-migrate-'));
    try {
      const first = await startService({ dataDir, env: { DATABASE_URL: undefined } });
      expect(await first.stop()).toBe(0);
      const second = await startService({ dataDir, env: { DATABASE_URL: undefined } });
      expect((await fetch(`${second.url}/health/ready`)).status).toBe(200);
      expect(await second.stop()).toBe(0);

      const db = await PGlite.create({ dataDir: join(dataDir, 'pg') });
      const applied = await db.query<{ name: string }>('SELECT name FROM migrations ORDER BY id');
      await db.close();
      expect(applied.rows.map((row) => row.name)).toEqual(MIGRATIONS.map((migration) => migration.name));
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("runs node as npm start and the image do, the embedded engine with the service's helper-thread pool and malloc arenas", async () => {
    const command = ['node', ...SERVICE_NODE_FLAGS, 'dist/apps/api/src/main.js'];
    const environment = Object.entries(SERVICE_ENV).map(([name, value]) => `${name}=${value}`);
    const { scripts } = JSON.parse(await readFile('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(scripts['start:prod']).toBe([...environment, ...command].join(' '));
    expect(scripts.start.endsWith(`&& ${[...environment, ...command].join(' ')}`)).toBe(true);
    const dockerfile = await readFile('docker/Dockerfile', 'utf8');
    expect(dockerfile).toContain(`CMD ${JSON.stringify(command).replaceAll('","', '", "')}`);
    // The image's runtime stage sets the same environment (its ENV instructions, continued lines included).
    const runtimeStage = dockerfile.slice(dockerfile.indexOf(' AS runtime'));
    const imageEnvironment = [...runtimeStage.matchAll(/^ENV ((?:.*\\\n)*.*)$/gm)].flatMap((match) => match[1].split(/[\s\\]+/).filter(Boolean));
    expect(imageEnvironment).toEqual(expect.arrayContaining(environment));

    const dataDir = await mkdtemp(join(tmpdir(), 'sta-engine-flags-'));
    try {
      const service = await startService({ dataDir, env: { DATABASE_URL: undefined } });
      const enginePid = (await readFile(join(dataDir, 'pg-engine.pid'), 'utf8')).trim();
      const engineCommand = (await readFile(`/proc/${enginePid}/cmdline`, 'utf8')).split('\0');
      const engineEnvironment = (await readFile(`/proc/${enginePid}/environ`, 'utf8')).split('\0');
      expect(await service.stop()).toBe(0);
      expect(engineCommand.filter((argument) => argument.startsWith('--v8-pool-size='))).toEqual(SERVICE_NODE_FLAGS);
      expect(engineEnvironment).toEqual(expect.arrayContaining(environment));
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  const onServer = process.env.DATABASE_URL ? it : it.skip;
  onServer('applies the migrations once on a PostgreSQL server, also across restarts', async () => {
    const first = await startService();
    const databaseUrl = first.databaseUrl!;
    // Keep the database: start a second service on the same one before the first is dropped.
    const second = await startService({ env: { DATABASE_URL: databaseUrl } });
    const names = await withClient(databaseUrl, (client) => client.query<{ name: string }>('SELECT name FROM migrations ORDER BY id'));
    expect(names.rows.map((row) => row.name)).toEqual(MIGRATIONS.map((migration) => migration.name));
    await second.stop();
    await first.stop();
  });

  it('shuts down cleanly on SIGTERM: exit code 0 and the database closed', async () => {
    const service = await startService({ env: { LOG_LEVEL: 'info' } });
    expect(await service.stop('SIGTERM')).toBe(0);
    expect(service.output()).toContain('database closed');
  });

  it('logs a short start-up ending with how to sign in, one line per request and one per import', async () => {
    const service = await startService({ env: { LOG_LEVEL: 'info', NODE_ENV: 'development' } });
    try {
      // The service may answer /health/ready before its last start-up lines have come through the pipe
      // (seen on a loaded machine): wait for the one that ends the start-up.
      await waitUntil(async () => /sign in at /.test(service.output()), 10_000, undefined, service.output);
      const startUp = service.output().trim().split('\n');
      expect(startUp.length).toBeLessThanOrEqual(10);
      expect(startUp.at(-2)).toMatch(/Server listening at http:\/\/127\.0\.0\.1:\d+/);
      expect(startUp.at(-1)).toMatch(/sign in at http:\/\/localhost:\d+\/ with the built-in development provider \(no password\) as demo@example\.com$/);
      expect(service.output()).not.toMatch(/WARNING|InstanceLoader|RouterExplorer/);

      const trader = await signIn(service);
      expect((await trader.json('PUT', '/auth/profile', { brokerage_account: 'XXXX-1111' })).status).toBe(200);
      const before = service.output().length;
      expect((await trader.fetch('/api/months?probe=1')).status).toBe(200);
      const imported = await trader.fetch('/api/upload-csv', { method: 'POST', headers: { origin: service.url }, body: uploadForm(exampleFiles()) });
      expect(ndjson(await imported.text()).pop()).toMatchObject({ type: 'success' });
      await fetch(`${service.url}/health/live`);
      await new Promise((resolve) => setTimeout(resolve, 200));

      const lines = service.output().slice(before).trim().split('\n');
      const months = lines.filter((line) => line.includes('/api/months'));
      expect(months).toHaveLength(1);
      expect(months[0]).toMatch(/request completed .*"method":"GET","path":"\/api\/months\?probe=1","status":200,"ms":\d+,"user":\d+/);
      expect(lines.filter((line) => line.includes('import succeeded'))).toEqual([
        expect.stringMatching(/"user":\d+,"account":\d+,"rows":\d+,"newTransactions":75,"ms":\d+,"trades":\d+/),
      ]);
      // Probes that succeed are left to the debug level; nothing carries the session cookie.
      expect(lines.some((line) => line.includes('/health/live'))).toBe(false);
      expect(service.output()).not.toContain(trader.cookie.split('=')[1]);
    } finally {
      await service.stop();
    }
  });
});
