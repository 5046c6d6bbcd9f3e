// The embedded engine's share of an import, measured on its own (issue 22): the whole import's time
// mixes the service's work with the engine's on two noisy cores, and the engine's half could not be
// told apart from one run to the next. This imports the active-trader shape's history (bench/scale.mjs's
// cut of it: everything before a busy day near the end) into a fresh embedded service that keeps each
// `COPY` statement's file (`ENGINE_KEEP_COPIES`, libs/persistence/src/embedded-engine.ts), then runs
// those statements again, in their order and in one transaction, on fresh copies of an empty migrated
// database, in PGlite with the service's settings, a variant at a time, ENGINE_ROUNDS (3) rounds with
// the variants taking turns. It prints each variant's median time, in all and per table.
//
//   ENGINE_ROWS       the history's transaction rows (100000), with bench/scale.mjs's symbols for it
//   ENGINE_SHAPE      one of bench/shapes.mjs's shapes instead (`LOT_SHAPES`: one-symbol, many-symbols, …),
//                     all of its history imported, as bench/profile.mjs's PROFILE_SHAPE
//   ENGINE_VARIANTS   what to compare, separated by spaces (default: base): `base` as the service runs,
//                     `set:<name>=<value>` an engine setting more (`set:shared_buffers=128MB`),
//                     `drop:<index>` an index dropped before the statements (`drop:closed_trades_user_symbol_idx`),
//                     `sql:<statement>` a statement run before them (`sql:ALTER TABLE … ;`, quoted for the shell),
//                     `only:<table>` only that table's statements (the others are left out)
//   ENGINE_ROUNDS     rounds (3)
//
// Each replay runs in a process of its own (PGlite keeps its memory until the process ends). It checks
// no goal: it is for looking into the engine's part of a figure (docs/imports.md "The engine's share").
import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mountSpool } from '../dist/libs/persistence/src/embedded-engine.js';
import { median } from './support/load.mjs';
import { startBenchService, waitForReady } from './support/service.mjs';
import { activeTraderSymbols, dailyUploads, generateActiveTraderHistory, generateLotHistory, LOT_SHAPES } from './support/trading-history.mjs';
import { importIntoFreshService } from './support/uploads.mjs';

if (process.argv[2] === '--replay') {
  await replay(process.argv[3], process.argv[4], process.argv[5]);
} else {
  await main();
}

async function main() {
  const rows = Number(process.env.ENGINE_ROWS ?? 100_000);
  // Separated by spaces; a `sql:` variant holds spaces of its own, so it runs to the next variant's kind.
  const variants = (process.env.ENGINE_VARIANTS ?? 'base').trim().split(/\s+(?=(?:base|set:|drop:|sql:|only:))/);
  const rounds = Number(process.env.ENGINE_ROUNDS ?? 3);
  const shape = process.env.ENGINE_SHAPE === undefined ? undefined : LOT_SHAPES.find(([name]) => name === process.env.ENGINE_SHAPE);
  if (process.env.ENGINE_SHAPE !== undefined && shape === undefined) {
    console.error(`ENGINE_SHAPE is one of ${LOT_SHAPES.map(([name]) => name).join(', ')}`);
    process.exit(2);
  }
  const work = await mkdtemp(join(tmpdir(), 'sta-engine-replay-'));
  try {
    const template = join(work, 'template');
    await emptyDatabase(template);
    const copies = join(work, 'copies');
    const base = shape === undefined ? dailyUploads(generateActiveTraderHistory({ rows, symbols: activeTraderSymbols(rows) })).base : generateLotHistory({ rows, ...shape[2] });
    process.env.ENGINE_KEEP_COPIES = copies;
    const { imported } = await importIntoFreshService({ pair: base, trader: 'replay@example.com' });
    delete process.env.ENGINE_KEEP_COPIES;
    console.log(`import of ${rows.toLocaleString('en-US')} rows${shape === undefined ? '' : ` (${shape[0]})`}: ${(imported.totalMs / 1000).toFixed(1)} s; its statements replayed, ${rounds} round${rounds === 1 ? '' : 's'}\n`);
    const results = new Map(variants.map((variant) => [variant, []]));
    for (let round = 0; round < rounds; round += 1) {
      for (const variant of variants) {
        const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--replay', template, copies, variant], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
        if (run.status !== 0) throw new Error(`the replay of ${variant} failed`);
        results.get(variant).push(JSON.parse(run.stdout));
      }
    }
    const tables = [...new Set([...results.values()].flatMap((runs) => runs.flatMap((run) => Object.keys(run.tables))))];
    console.log(`| variant | all | ${tables.join(' | ')} |`);
    console.log(`|---|---:|${tables.map(() => '---:').join('|')}|`);
    for (const [variant, runs] of results) {
      const ms = (values) => (values.includes(undefined) ? '–' : `${Math.round(median(values)).toLocaleString('en-US')} ms`);
      console.log(`| ${variant} | ${ms(runs.map((run) => run.total))} | ${tables.map((table) => ms(runs.map((run) => run.tables[table]))).join(' | ')} |`);
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** An empty database with the service's migrations: a fresh embedded service's, once it is ready. */
async function emptyDatabase(directory) {
  const dataDir = await mkdtemp(join(tmpdir(), 'sta-engine-template-'));
  const service = await startBenchService({ dataDir, users: ['replay@example.com'] });
  try {
    await waitForReady(service.url, 60_000);
  } finally {
    await service.stop();
  }
  await cp(join(dataDir, 'pg'), directory, { recursive: true });
  await rm(dataDir, { recursive: true, force: true });
}

/** One replay of the kept statements on a copy of `template` (in a process of its own): prints its times as JSON. */
async function replay(template, copies, variant) {
  const require = createRequire(import.meta.url);
  const { PGlite } = require(require.resolve('@electric-sql/pglite'));
  const directory = await mkdtemp(join(tmpdir(), 'sta-engine-run-'));
  await cp(template, directory, { recursive: true });
  const [kind, argument] = variant.includes(':') ? [variant.slice(0, variant.indexOf(':')), variant.slice(variant.indexOf(':') + 1)] : [variant, ''];
  // The settings the service's engine ran with (kept beside the statements), and the variant's.
  const settings = JSON.parse(await readFile(join(copies, 'settings.json'), 'utf8'));
  const db = await PGlite.create({ dataDir: directory, startParams: [...PGlite.defaultStartParams, ...settings, ...(kind === 'set' ? ['-c', argument] : [])] });
  try {
    // The import's user and account: the first of each in a fresh database, as the kept rows name them.
    await db.query(`INSERT INTO users (id, email) VALUES (1, 'replay@example.com')`);
    await db.query(`INSERT INTO brokerage_accounts (id, user_id, account_number) VALUES (1, 1, 'replay')`);
    if (kind === 'drop') await db.query(`DROP INDEX ${argument}`);
    // The statements name their files as the service's engine reads them: the kept ones, mounted there.
    mountSpool(db, copies);
    if (kind === 'sql') await db.exec(argument);
    // Each names its kept file (`COPY table (…) FROM '/service-copy/000001.copy'`).
    const statements = (await readFile(join(copies, 'statements.txt'), 'utf8')).split('\n').filter((statement) => statement !== '');
    const tables = {};
    await db.query('BEGIN');
    const started = performance.now();
    for (const statement of statements) {
      const table = statement.split(' ')[1];
      if (kind === 'only' && table !== argument) continue;
      const before = performance.now();
      await db.query(statement);
      tables[table] = (tables[table] ?? 0) + performance.now() - before;
    }
    await db.query('COMMIT');
    process.stdout.write(JSON.stringify({ total: performance.now() - started, tables }));
  } finally {
    await db.close();
    await rm(directory, { recursive: true, force: true });
  }
}
