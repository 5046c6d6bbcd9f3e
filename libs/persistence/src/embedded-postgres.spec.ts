import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import pg from 'pg';
import { EmbeddedPostgres } from './embedded-postgres.js';

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/** The embedded engine's process: started and stopped with the service, data kept, a crash reported. */
describe('EmbeddedPostgres (engine process)', () => {
  let dataDir: string;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    dataDir = await mkdtemp(join(tmpdir(), 'sta-engine-'));
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps its data across a stop and a start, and leaves no process behind', async () => {
    const first = await EmbeddedPostgres.start(dataDir);
    await query(first.url, `CREATE TABLE kept (note TEXT); INSERT INTO kept VALUES ('still here')`);
    const pid = first.pid as number;
    expect(isRunning(pid)).toBe(true);
    await first.stop();
    expect(isRunning(pid)).toBe(false);

    const second = await EmbeddedPostgres.start(dataDir);
    try {
      expect(await query(second.url, 'SELECT note FROM kept')).toEqual([{ note: 'still here' }]);
      expect(await second.copyFrom({ table: 'kept', columns: ['note'] }, 'copied\n')).toBe(1);
    } finally {
      await second.stop();
    }
  }, 60000);

  it('takes a new connection while the one it replaces is still closing (a pool that lets idle ones go)', async () => {
    // The service's pool holds one connection and closes it after a while idle: the next query opens
    // another at once. With room for a single connection, the engine refused about one in six of them.
    const engine = await EmbeddedPostgres.start(dataDir);
    const pool = new pg.Pool({ connectionString: engine.url, max: 1, idleTimeoutMillis: 20 });
    const failures: string[] = [];
    try {
      for (let attempt = 0; attempt < 60; attempt += 1) {
        await pool.query('SELECT 1').catch((error: Error) => failures.push(error.message));
        await new Promise((resolve) => setTimeout(resolve, 15 + (attempt % 10)));
      }
    } finally {
      await pool.end();
      await engine.stop();
    }
    expect(failures).toEqual([]);
  }, 60000);

  it('passes COPY text through files it removes once read, whether the statement succeeds or not', async () => {
    const spool = join(dataDir, 'pg-copy');
    await mkdir(spool, { recursive: true });
    await writeFile(join(spool, '99.copy'), 'left by an engine that was stopped\n');
    const engine = await EmbeddedPostgres.start(dataDir);
    try {
      expect(await readdir(spool)).toEqual([]);
      expect(await engine.copyFrom({ table: 'kept', columns: ['note'] }, 'one\ntwo\n')).toBe(2);
      await expect(engine.copyFrom({ table: 'missing', columns: ['note'] }, 'three\n')).rejects.toThrow('relation "missing" does not exist');
      expect(await readdir(spool)).toEqual([]);
      // A statement spooled a piece at a time is one statement; one dropped unsent leaves no file.
      const dropped = engine.spooledCopy({ table: 'kept', columns: ['note'] });
      dropped.write('never\n');
      const pieces = engine.spooledCopy({ table: 'kept', columns: ['note'] });
      for (const piece of ['four\n', 'five\nsix\n', 'seven\n']) pieces.write(piece);
      dropped.discard();
      expect(await pieces.end()).toBe(4);
      expect(() => pieces.write('eight\n')).toThrow('handed over');
      expect(await readdir(spool)).toEqual([]);
    } finally {
      await engine.stop();
    }
  }, 60000);

  it('keeps each COPY file, numbered, its statement and the settings where ENGINE_KEEP_COPIES says (for bench/engine-replay.mjs)', async () => {
    const kept = join(dataDir, 'kept-copies');
    process.env.ENGINE_KEEP_COPIES = kept;
    const engine = await EmbeddedPostgres.start(dataDir).finally(() => delete process.env.ENGINE_KEEP_COPIES);
    try {
      await query(engine.url, `CREATE TABLE copies_kept (note TEXT)`);
      expect(await engine.copyFrom({ table: 'copies_kept', columns: ['note'] }, 'first\n')).toBe(1);
      expect(await engine.copyFrom({ table: 'copies_kept', columns: ['note'] }, 'second\nthird\n')).toBe(2);
      expect(await readdir(join(dataDir, 'pg-copy'))).toEqual([]);
      expect((await readdir(kept)).sort()).toEqual(['000001.copy', '000002.copy', 'settings.json', 'statements.txt']);
      expect(JSON.parse(await readFile(join(kept, 'settings.json'), 'utf8'))).toContain('shared_buffers=32MB');
      expect(await readFile(join(kept, '000002.copy'), 'utf8')).toBe('second\nthird\n');
      expect(await readFile(join(kept, 'statements.txt'), 'utf8')).toBe(
        `COPY copies_kept (note) FROM '/service-copy/000001.copy'\nCOPY copies_kept (note) FROM '/service-copy/000002.copy'\n`,
      );
    } finally {
      await engine.stop();
      await rm(kept, { recursive: true, force: true });
    }
  }, 60000);

  it('fails waiting and later statements with a clear error when the engine dies', async () => {
    const engine = await EmbeddedPostgres.start(dataDir);
    const statement = engine.copyFrom({ table: 'kept', columns: ['note'] }, 'x\n'.repeat(200_000));
    process.kill(engine.pid as number, 'SIGKILL');
    await expect(statement).rejects.toThrow(/the embedded database stopped \(SIGKILL\)|stopped/);
    await expect(engine.copyFrom({ table: 'kept', columns: ['note'] }, 'y\n')).rejects.toThrow('the embedded database stopped (SIGKILL)');
    await engine.stop();
  }, 60000);

  it('ignores a terminal\'s signals (the service decides when it stops) and stops when asked', async () => {
    const engine = await EmbeddedPostgres.start(dataDir);
    const pid = engine.pid as number;
    process.kill(pid, 'SIGTERM');
    process.kill(pid, 'SIGINT');
    expect(await query(engine.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    await engine.stop();
    expect(isRunning(pid)).toBe(false);
  }, 60000);

  it('says why it could not start', async () => {
    const blocked = await mkdtemp(join(tmpdir(), 'sta-engine-blocked-'));
    try {
      await mkdir(join(blocked, 'pg'));
      await writeFile(join(blocked, 'pg', 'PG_VERSION'), '9\n'); // files of a PostgreSQL the engine cannot open
      await expect(EmbeddedPostgres.start(blocked)).rejects.toThrow(/^the embedded database did not start/);
    } finally {
      await rm(blocked, { recursive: true, force: true });
    }
  });

  it('makes a new database by copying a pristine one, made once and kept', async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'sta-engine-template-'));
    const templates = join(scratch, 'templates');
    try {
      const first = await EmbeddedPostgres.start(join(scratch, 'first'), { templates });
      await first.stop();
      const [template] = await readdir(templates);
      expect(template).toMatch(/^pristine-pglite-\d+\.\d+\.\d+$/);
      // A file only the template has shows that the next database is a copy of it, not a new initdb.
      await writeFile(join(templates, template, 'made-from-template'), '');
      const second = await EmbeddedPostgres.start(join(scratch, 'second'), { templates });
      try {
        expect(await readdir(join(scratch, 'second', 'pg'))).toContain('made-from-template');
        expect(await query(second.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
      } finally {
        await second.stop();
      }
      expect(await readdir(templates)).toEqual([template]); // nothing left over from making it
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }, 60000);

  it('makes a new database from a template with the schema applied, made once per schema', async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'sta-engine-schema-'));
    const templates = join(scratch, 'templates');
    const applied: string[] = [];
    const schema = (key: string, table: string) => ({
      key,
      apply: async (url: string) => {
        applied.push(key);
        await query(url, `CREATE TABLE ${table} (id int); INSERT INTO ${table} VALUES (1)`);
      },
    });
    const tablesOf = async (dataDir: string, options: Parameters<typeof EmbeddedPostgres.start>[1]) => {
      const engine = await EmbeddedPostgres.start(dataDir, options);
      try {
        return await query(engine.url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1");
      } finally {
        await engine.stop();
      }
    };
    try {
      expect(await tablesOf(join(scratch, 'first'), { templates, schema: schema('v1', 'first_table') })).toEqual([{ tablename: 'first_table' }]);
      expect(await tablesOf(join(scratch, 'second'), { templates, schema: schema('v1', 'first_table') })).toEqual([{ tablename: 'first_table' }]);
      expect(applied).toEqual(['v1']); // the second database is a copy: the schema was not applied again
      expect(await tablesOf(join(scratch, 'third'), { templates, schema: schema('v2', 'second_table') })).toEqual([{ tablename: 'second_table' }]);
      expect(applied).toEqual(['v1', 'v2']);
      // A schema that cannot be applied leaves no template: the database is the pristine one, for the
      // service's own start to migrate (and report the failure).
      const failing = { key: 'v3', apply: () => Promise.reject(new Error('a migration failed')) };
      expect(await tablesOf(join(scratch, 'fourth'), { templates, schema: failing })).toEqual([]);
      const kept = await readdir(templates);
      expect(kept.filter((name) => name.startsWith('schema-'))).toHaveLength(2);
      expect(kept.filter((name) => name.startsWith('pristine-'))).toHaveLength(1);
      expect(kept).toHaveLength(3); // nothing left over from making them
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }, 120000);

  it('creates the database in place when no template can be kept', async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'sta-engine-no-template-'));
    try {
      await writeFile(join(scratch, 'not-a-folder'), '');
      const engine = await EmbeddedPostgres.start(join(scratch, 'data'), { templates: join(scratch, 'not-a-folder') });
      try {
        expect(await query(engine.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
      } finally {
        await engine.stop();
      }
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }, 60000);
});
