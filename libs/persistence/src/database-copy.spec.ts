import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { loadConfig } from '@app/shared';
import { createTestDatabase, serverDatabaseUrl, type TestDatabase } from '../../../test/support/test-database.js';
import { copyPieces, rowsOf, type CopyPiece, type CopyTarget } from './bulk-copy.js';
import { Database } from './database.js';

const NOTES: CopyTarget = { table: 'copy_notes', columns: ['id', 'note', 'amount'] };
const TAGS: CopyTarget = { table: 'copy_tags', columns: ['note_id', 'tag'] };

/**
 * `Database.copyRows` on a real database (the embedded one, or the server when DATABASE_URL is set):
 * rows land with their unit of work, several chunks and tables in one call, and a failing row
 * undoes the whole unit of work and leaves the database usable.
 */
describe('Database.copyRows (real database)', () => {
  let dataDir: string;
  let serverDatabase: TestDatabase | undefined;
  let database: Database;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    dataDir = await mkdtemp(join(tmpdir(), 'sta-copy-'));
    const adminUrl = serverDatabaseUrl();
    serverDatabase = adminUrl ? await createTestDatabase(adminUrl) : undefined;
    database = new Database(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: serverDatabase?.url }), { entities: [], migrations: [] });
    await database.onApplicationBootstrap();
    await database.manager.query(`CREATE TABLE copy_notes (id INTEGER PRIMARY KEY, note TEXT, amount NUMERIC NOT NULL)`);
    await database.manager.query(`CREATE TABLE copy_tags (note_id INTEGER NOT NULL, tag TEXT NOT NULL)`);
  }, 60000);

  afterAll(async () => {
    await database?.onApplicationShutdown();
    await serverDatabase?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const count = async (table: string): Promise<number> => (await database.manager.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n;

  it('writes many chunks into several tables in one unit of work, exact decimals and awkward text included', async () => {
    const ids = Array.from({ length: 25_001 }, (_, index) => index + 1);
    const counts = await database.inTransaction(() =>
      database.copyRows(
        { target: NOTES, rows: rowsOf(ids, (id) => [id, id === 7 ? 'tab\there \\N back\\slash\r\nline' : id % 2 ? null : `note ${id}`, `${id}.0000000001`]) },
        { target: TAGS, rows: rowsOf(ids.slice(0, 3), (id, index) => [id, `tag ${index}`]) },
      ),
    );
    expect(counts).toEqual([25_001, 3]);
    const [row] = await database.manager.query(`SELECT note, amount::text AS amount FROM copy_notes WHERE id = 7`);
    expect(row).toEqual({ note: 'tab\there \\N back\\slash\r\nline', amount: '7.0000000001' });
    const [sums] = await database.manager.query(`SELECT sum(amount)::text AS total, count(note)::int AS notes FROM copy_notes`);
    expect(sums).toEqual({ total: '312537501.0000025001', notes: 12_501 });
  }, 60000);

  it('works out the rows of a job that gives a function after the first job has given its rows (on a server, while it takes them in)', async () => {
    const built: string[] = [];
    const counts = await database.inTransaction(() =>
      database.copyRows(
        {
          target: NOTES,
          rows: rowsOf([5_000_001, 5_000_002], (id) => {
            built.push(`note ${id}`);
            return [id, null, '1'];
          }),
        },
        {
          target: TAGS,
          rows: rowsOf([5_000_002], (id) => {
            built.push('tag row');
            return [id, 'made as sent'];
          }),
        },
        {
          target: TAGS,
          rows: async () => {
            built.push('tags worked out');
            await new Promise((resolve) => setTimeout(resolve, 5)); // the event loop may turn meanwhile
            return [[5_000_001, 'worked out later']];
          },
        },
      ),
    );
    expect(counts).toEqual([2, 1, 1]);
    // A server's writer starts on it once the first job's last piece is sent; the embedded engine's
    // writer hands each job over without waiting for the engine, and comes to it in its order.
    const afterFirst = serverDatabase === undefined ? ['tag row', 'tags worked out'] : ['tags worked out', 'tag row'];
    expect(built).toEqual(['note 5000001', 'note 5000002', ...afterFirst]);
    expect(await database.manager.query(`SELECT tag FROM copy_tags WHERE note_id >= 5000001 ORDER BY tag`)).toEqual([{ tag: 'made as sent' }, { tag: 'worked out later' }]);
  });

  it("releases each piece of made text once, only once its bytes are written (a released piece's bytes are overwritten)", async () => {
    const ids = Array.from({ length: 20_000 }, (_, index) => 7_000_001 + index);
    let made = 0;
    const released: number[] = [];
    async function* pieces(): AsyncGenerator<CopyPiece> {
      for await (const piece of copyPieces(rowsOf(ids, (id) => [id, `released ${id}`, '2.5']), async () => undefined)) {
        const index = made++;
        // As a thread's piece given back to be filled again: a release before the bytes are out would
        // send these instead, which the table refuses (or the sums below would tell).
        yield { ...piece, release: () => void (released.push(index), piece.bytes.fill('x')) };
      }
    }
    const counts = await database.inTransaction(() => database.copyRows({ target: NOTES, pieces: pieces() }));
    expect(counts).toEqual([20_000]);
    expect(made).toBeGreaterThan(10);
    expect(released.sort((a, b) => a - b)).toEqual(Array.from({ length: made }, (_, index) => index));
    const [sums] = await database.manager.query(`SELECT count(*)::int AS n, sum(amount)::text AS total, count(*) FILTER (WHERE note = 'released ' || id)::int AS notes FROM copy_notes WHERE id > 7000000`);
    expect(sums).toEqual({ n: 20_000, total: '50000.0', notes: 20_000 });
    await database.manager.query(`DELETE FROM copy_notes WHERE id > 7000000`);
  });

  it('rolls the unit of work back when a job that gives a function fails, before or after the jobs ahead of it are written', async () => {
    for (const waitMs of [0, 50]) {
      const failing = database.inTransaction(() =>
        database.copyRows(
          { target: NOTES, rows: rowsOf([6_000_001, 6_000_002], (id) => [id, null, '1']) },
          { target: TAGS, rows: rowsOf([6_000_001], (id) => [id, 'never kept']) },
          {
            target: TAGS,
            rows: async () => {
              await new Promise((resolve) => setTimeout(resolve, waitMs));
              throw new Error('the totals could not be added up');
            },
          },
        ),
      );
      await expect(failing).rejects.toThrow('the totals could not be added up');
      expect(await database.manager.query(`SELECT id FROM copy_notes WHERE id >= 6000001`)).toEqual([]);
      expect(await database.manager.query(`SELECT tag FROM copy_tags WHERE note_id >= 6000001`)).toEqual([]);
    }
  });

  it('undoes the whole unit of work when a row is refused, and the database goes on working', async () => {
    const before = { notes: await count('copy_notes'), tags: await count('copy_tags') };
    const refused = database.inTransaction(async () => {
      await database.manager.query(`INSERT INTO copy_tags (note_id, tag) VALUES (0, 'written before the copy')`);
      await database.copyRows({ target: NOTES, rows: rowsOf([1_000_001, 1_000_002, 1], (id) => [id, 'again', '1']) });
    });
    await expect(refused).rejects.toThrow(/duplicate key value violates unique constraint/);
    expect({ notes: await count('copy_notes'), tags: await count('copy_tags') }).toEqual(before);

    await database.inTransaction(() => database.copyRows({ target: TAGS, rows: [[1, 'after the failure']] }));
    expect(await count('copy_tags')).toBe(before.tags + 1);
  }, 60000);

  it('a copy the work did not wait for lands before the commit, and its failure rolls the unit of work back', async () => {
    const before = { notes: await count('copy_notes'), tags: await count('copy_tags') };
    const ids = Array.from({ length: 20_000 }, (_, index) => 2_000_000 + index);
    await database.inTransaction(async () => {
      void database.copyRows({ target: NOTES, rows: rowsOf(ids, (id) => [id, null, '1']) }).catch(() => undefined);
    });
    expect(await count('copy_notes')).toBe(before.notes + ids.length);

    const failing = database.inTransaction(async () => {
      await database.manager.query(`INSERT INTO copy_tags (note_id, tag) VALUES (0, 'written before the copy')`);
      void database.copyRows({ target: NOTES, rows: rowsOf([3_000_000, ids[0]], (id) => [id, 'again', '1']) }).catch(() => undefined);
    });
    await expect(failing).rejects.toThrow(/duplicate key value violates unique constraint/);
    expect({ notes: await count('copy_notes'), tags: await count('copy_tags') }).toEqual({ notes: before.notes + ids.length, tags: before.tags });

    // A failure of the work itself waits for its copies first: the next unit of work starts clean.
    const thrown = database.inTransaction(async () => {
      void database.copyRows({ target: NOTES, rows: rowsOf([3_000_001], (id) => [id, null, '1']) }).catch(() => undefined);
      throw new Error('the work failed');
    });
    await expect(thrown).rejects.toThrow('the work failed');
    await database.inTransaction(() => database.copyRows({ target: TAGS, rows: [[2, 'next unit of work']] }));
    expect({ notes: await count('copy_notes'), tags: await count('copy_tags') }).toEqual({ notes: before.notes + ids.length, tags: before.tags + 1 });

    // A statement of the work runs once the copies started before it have ended: it sees their rows
    // (the embedded engine ran it in the middle of them); behind a copy that fails, it fails with the
    // copy's error, the cause (a server would say the transaction is aborted).
    const later = Array.from({ length: 30_000 }, (_, index) => 4_000_000 + index);
    const seen = await database.inTransaction(async () => {
      void database.copyRows({ target: NOTES, rows: rowsOf(later, (id) => [id, null, '1']) }).catch(() => undefined);
      const [row] = await database.manager.query(`SELECT count(*)::int AS n FROM copy_notes WHERE id BETWEEN 4000000 AND 4999999`);
      throw Object.assign(new Error('undo'), { seen: row.n });
    }).catch((error: { seen: number }) => error.seen);
    expect(seen).toBe(later.length);
    const behind = database.inTransaction(async () => {
      void database.copyRows({ target: NOTES, rows: rowsOf([3_000_002, ids[1]], (id) => [id, 'again', '1']) }).catch(() => undefined);
      await database.manager.query(`INSERT INTO copy_tags (note_id, tag) VALUES (0, 'behind the copy')`);
    });
    await expect(behind).rejects.toThrow(/duplicate key value violates unique constraint/);
    expect({ notes: await count('copy_notes'), tags: await count('copy_tags') }).toEqual({ notes: before.notes + ids.length, tags: before.tags + 1 });
  }, 60000);

  it("refreshes the named columns' statistics once the unit of work has committed, never after a rollback", async () => {
    await database.manager.query(`CREATE TABLE copy_measured (id INTEGER NOT NULL, grp INTEGER NOT NULL)`);
    const measured = async () => {
      await database.statisticsRefreshed();
      const [{ reltuples }] = await database.manager.query(`SELECT reltuples::int AS reltuples FROM pg_class WHERE relname = 'copy_measured'`);
      const columns = await database.manager.query(`SELECT attname FROM pg_stats WHERE tablename = 'copy_measured' ORDER BY attname`);
      return { reltuples, columns: columns.map((row: { attname: string }) => row.attname) };
    };
    const rows = () => rowsOf(Array.from({ length: 5_000 }, (_, index) => index), (id) => [id, id % 7]);
    const MEASURED = { table: 'copy_measured', columns: ['id', 'grp'] };
    const rolledBack = database.inTransaction(async () => {
      await database.copyRows({ target: MEASURED, rows: rows() });
      database.refreshStatisticsAfterCommit({ copy_measured: ['grp'] }, 5_000);
      throw new Error('the work failed');
    });
    await expect(rolledBack).rejects.toThrow('the work failed');
    expect(await measured()).toEqual({ reltuples: -1, columns: [] });

    await database.inTransaction(async () => {
      await database.copyRows({ target: MEASURED, rows: rows() });
      database.refreshStatisticsAfterCommit({ copy_measured: ['grp'] }, 2_500);
      database.refreshStatisticsAfterCommit({ copy_measured: ['grp'] }, 2_500);
    });
    expect(await measured()).toEqual({ reltuples: 5_000, columns: ['grp'] });
    const named = database.inTransaction(async () => database.refreshStatisticsAfterCommit({ 'copy_measured; DROP TABLE copy_tags': ['grp'] }, 5_000));
    await expect(named).rejects.toThrow('not a plain SQL identifier');
  }, 60000);

  it('refreshes statistics only after a write of many rows, and of a tenth of what they counted', async () => {
    await database.manager.query(`CREATE TABLE copy_counted (id INTEGER NOT NULL, grp INTEGER NOT NULL)`);
    const COUNTED = { table: 'copy_counted', columns: ['id', 'grp'] };
    let next = 0;
    const write = (rows: number) =>
      database.inTransaction(async () => {
        await database.copyRows({ target: COUNTED, rows: rowsOf(Array.from({ length: rows }, () => next++), (id) => [id, id % 5]) });
        database.refreshStatisticsAfterCommit({ copy_counted: ['id', 'grp'] }, rows);
      });
    const counted = async () => {
      await database.statisticsRefreshed();
      const [{ reltuples }] = await database.manager.query(`SELECT reltuples::int AS reltuples FROM pg_class WHERE relname = 'copy_counted'`);
      return reltuples;
    };
    await write(1_500); // too few to be worth it, even into a table never measured
    expect(await counted()).toBe(-1);
    await write(30_000);
    const taken = await counted();
    expect(taken).toBeGreaterThanOrEqual(30_000);
    await write(2_500); // a day's rows into a large table: under a tenth of what the statistics counted
    expect(await counted()).toBe(taken);
    await write(4_000);
    expect(await counted()).toBe(next);
  }, 60000);

  it('is refused outside a unit of work', async () => {
    await expect(database.copyRows({ target: TAGS, rows: [[1, 'loose']] })).rejects.toThrow('copyRows runs inside a unit of work');
  });
});
