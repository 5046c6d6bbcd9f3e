import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { createHash, randomUUID } from 'node:crypto';
import { access, cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Logger } from '@nestjs/common';
import { copyStatement, type CopyTarget } from './bulk-copy.js';
import { ENGINE_ARGUMENT, ENGINE_SPOOL, type EngineReply, type EngineRequest } from './embedded-engine.js';

/** A COPY statement being spooled for the engine (`EmbeddedPostgres.spooledCopy`). */
export interface SpooledCopy {
  /** Appends whole lines of COPY text (bytes as UTF-8). */
  write(text: string | Uint8Array): void;
  /** Hands the statement to the engine: resolves with the rows it copied. */
  end(): Promise<number>;
  /** Drops the statement unsent. */
  discard(): void;
}

/**
 * The embedded PostgreSQL: PGlite (PostgreSQL compiled to WebAssembly) with its files under
 * `DATA_DIR/pg`, served on a loopback port so the ordinary `pg` driver, and with it TypeORM,
 * talks to it exactly as to a real server. PGlite is one session: use a pool of one connection.
 *
 * The engine runs in a child process of its own, as a PostgreSQL server would: its work does not
 * hold up the service's event loop, on two cores the service parses and matches an import while the
 * engine writes the rows before, and the engine's memory (WebAssembly, its buffer pool) is not the
 * service's. The child ends with the service (it exits when its channel to the service closes).
 */
export class EmbeddedPostgres {
  private readonly logger = new Logger(EmbeddedPostgres.name);
  private readonly pending = new Map<number, { resolve: (rows: number) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private failure: Error | undefined;
  private stopping = false;

  private constructor(
    private readonly engine: ChildProcess,
    readonly url: string,
    private readonly spool: string,
  ) {
    engine.on('message', (message: EngineReply) => this.settle(message));
    engine.on('error', (error) => this.fail(error));
    engine.on('exit', (code, signal) => this.fail(new Error(`the embedded database stopped (${signal ?? `exit code ${code}`})`)));
  }

  /** The engine's process id. */
  get pid(): number | undefined {
    return this.engine.pid;
  }

  /**
   * Opens (or first creates) the database under `dataDir/pg`. A new database is a copy of a template
   * kept under `templates` (by default `node_modules/.cache/stocks-trading-analysis`): the one with
   * `schema` already applied when it is given, else a pristine one.
   */
  static async start(dataDir: string, options: { templates?: string; schema?: Schema } = {}): Promise<EmbeddedPostgres> {
    const directory = join(dataDir, 'pg');
    await mkdir(directory, { recursive: true });
    const lock = join(dataDir, 'pg-engine.pid');
    await waitForEarlierEngine(lock);
    const spool = join(dataDir, 'pg-copy');
    await rm(spool, { recursive: true, force: true }); // what a stopped engine left unread
    await mkdir(spool, { recursive: true });
    const program = await engineProgram(dataDir);
    const require = createRequire(import.meta.url);
    const pglite = require.resolve('@electric-sql/pglite');
    if (!(await exists(join(directory, 'PG_VERSION')))) await createDatabase(program, pglite, directory, options);
    const engine = spawnEngine(program);
    const socket = require.resolve('@electric-sql/pglite-socket');
    // Benchmarks only (bench/engine-replay.mjs): the engine keeps its COPY statements' files there.
    const keepCopies = process.env.ENGINE_KEEP_COPIES?.trim() || undefined;
    const { url } = await firstReply(engine, { type: 'start', pglite, socket, directory, spool, settings: SETTINGS, keepCopies }, 'ready');
    await writeFile(lock, String(engine.pid));
    return new EmbeddedPostgres(engine, url, spool);
  }

  /**
   * `COPY … FROM` the given text, straight into the engine rather than through the socket (several
   * times faster for large inputs). The engine is one session: the statement joins whatever
   * transaction the socket's connection has open, which is the caller's. Statements run in the
   * order they were given; the caller may hand over the next before this one has finished.
   */
  copyFrom(target: CopyTarget, text: string): Promise<number> {
    try {
      const copy = this.spooledCopy(target);
      copy.write(text);
      return copy.end();
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /**
   * A `COPY … FROM` statement (as `copyFrom`) whose text is written a piece at a time: no more than a
   * piece of a large statement is held as a string. The text goes through a file under
   * `DATA_DIR/pg-copy` (named by a counter; the engine deletes it once read) and only its name through
   * the channel: writing the file needs no event-loop turn, so the engine can take in one statement
   * while the service goes on with CPU work (matching an import) instead of waiting for the channel to
   * be drained. Throws when the engine has stopped; `end` hands the statement over (in the order the
   * statements were started), `discard` drops it.
   */
  spooledCopy(target: CopyTarget): SpooledCopy {
    if (this.failure !== undefined) throw this.failure;
    const id = this.nextId++;
    const file = join(this.spool, `${id}.copy`);
    const statement = copyStatement(target, `'${ENGINE_SPOOL}/${id}.copy'`);
    let descriptor: number | undefined = openSync(file, 'w');
    const close = () => {
      if (descriptor !== undefined) closeSync(descriptor);
      descriptor = undefined;
    };
    return {
      write: (text) => {
        if (descriptor === undefined) throw new Error('the COPY statement has been handed over');
        try {
          const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
          for (let written = 0; written < bytes.length; ) written += writeSync(descriptor, bytes, written);
        } catch (error) {
          close();
          rmSync(file, { force: true });
          throw error;
        }
      },
      end: () => {
        try {
          close();
        } catch (error) {
          return Promise.reject(error instanceof Error ? error : new Error(String(error)));
        }
        if (this.failure !== undefined) {
          rmSync(file, { force: true });
          return Promise.reject(this.failure);
        }
        return this.send({ type: 'copy', id, statement, file });
      },
      discard: () => {
        close();
        rmSync(file, { force: true });
      },
    };
  }

  /**
   * A round trip to the engine process that does not queue behind the session's statements: it
   * answers as soon as the engine's event loop has a turn, so a long import (which holds the one
   * session) does not make a live engine look unavailable.
   */
  ping(): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return this.send({ type: 'ping', id: this.nextId++ }).then(() => undefined);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.failure === undefined) await this.send({ type: 'stop', id: this.nextId++ }).catch(() => undefined);
    if (this.engine.exitCode === null && this.engine.signalCode === null) {
      const exited = new Promise((resolve) => this.engine.once('exit', resolve));
      this.engine.disconnect();
      await exited;
    }
  }

  /** Callers check `failure` first. */
  private send(request: Extract<EngineRequest, { id: number }>): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.pending.set(request.id, { resolve, reject });
      this.engine.send(request);
    });
  }

  private settle(message: EngineReply): void {
    if (message.type !== 'done') return;
    const waiting = this.pending.get(message.id);
    this.pending.delete(message.id);
    if (message.error === undefined) waiting?.resolve(message.rows);
    else waiting?.reject(Object.assign(new Error(message.error.message), { code: message.error.code, detail: message.error.detail }));
  }

  private fail(error: Error): void {
    // Nothing restarts it: the service stays up, not ready, and says why (requests answer 500
    // `Database connection failed`); a restart of the service starts a new engine.
    if (this.failure === undefined && !this.stopping) this.logger.error(`${error.message}; restart the service`);
    this.failure ??= error;
    for (const waiting of this.pending.values()) waiting.reject(this.failure);
    this.pending.clear();
  }
}

/**
 * What every new database is given before its first use (the service's migrations): `key` names it
 * (any change to it must change the key), `apply` gives it to the database at `url`.
 */
export interface Schema {
  readonly key: string;
  apply(url: string): Promise<void>;
}

/**
 * Engine settings. The shared buffer pool is a fixed part of the process's memory (PGlite runs in
 * it); 32 MB instead of PostgreSQL's 128 MB keeps the service's resident memory lower, at no
 * measurable cost to imports or reports: the operating system caches the data files behind it.
 * `work_mem` 16 MB instead of 4 MB: the engine runs one statement at a time, and the statistics'
 * grouped scan of 100,000 trades then sorts and hashes in memory instead of spilling to files.
 * `DateStyle` ISO, as on a server's connections (`Database`): a date's own text is `YYYY-MM-DD`.
 * `random_page_cost` 1.1 instead of 4, as for data on an SSD or in the operating system's cache (the
 * embedded database's files are local, and read through that cache): with 4, the planner read a busy
 * month's trades by bitmap and sorted them (their JSON text, 11 MB at 34,019 trades) rather than
 * follow the index that holds them in order (ClosedTradesInReportOrder1763970000000).
 */
const SETTINGS = ['-c', 'shared_buffers=32MB', '-c', 'work_mem=16MB', '-c', 'DateStyle=ISO', '-c', 'random_page_cost=1.1'];

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/**
 * The engine's program: the compiled `embedded-engine.js` next to this module, or, when the service
 * runs from its TypeScript sources (the tests do), that source transpiled into `DATA_DIR`.
 */
async function engineProgram(dataDir: string): Promise<string> {
  const compiled = fileURLToPath(new URL('./embedded-engine.js', import.meta.url));
  if (await exists(compiled)) return compiled;
  const source = fileURLToPath(new URL('./embedded-engine.ts', import.meta.url));
  const { default: ts } = await import('typescript');
  const { outputText } = ts.transpileModule(await readFile(source, 'utf8'), {
    fileName: source,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  const program = join(dataDir, 'embedded-engine.mjs');
  await writeFile(program, outputText);
  return program;
}

/**
 * Waits until the engine an earlier run of the service started on these files (its pid in `lock`) has
 * exited: a killed service's engine closes its files on its own, in a moment, and a second engine
 * must not open them meanwhile. One still there after `patienceMs` belongs to a service that is still
 * running on this `DATA_DIR` (or hangs): the start is refused, naming it, rather than opening the
 * files beside it. A pid that is no engine of ours (the file outlived a restart of the machine) is ignored.
 */
export async function waitForEarlierEngine(lock: string, patienceMs = 15_000): Promise<void> {
  const pid = Number.parseInt(await readFile(lock, 'utf8').catch(() => ''), 10);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return;
  const isEngine = async (): Promise<boolean> => {
    try {
      process.kill(pid, 0);
    } catch {
      return false;
    }
    // Where the system shows a process's command line (Linux), the pid must be an engine's.
    const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => null);
    return commandLine === null || commandLine.split('\0').includes(ENGINE_ARGUMENT);
  };
  const deadline = Date.now() + patienceMs;
  while (await isEngine()) {
    if (Date.now() >= deadline) {
      throw new Error(
        `the embedded database in ${dirname(lock)} is open in another process (its engine, pid ${pid}, is still running): ` +
          'is another instance of the service using this DATA_DIR? Stop it (or that process) first',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The size of V8's helper-thread pool the service was started with (`--v8-pool-size=N`, as `npm start`
 * does; docs/operations.md "Processes and threads"): the engine gets the same, not node's default of four.
 */
const POOL_SIZE_FLAGS = process.execArgv.filter((flag) => flag.startsWith('--v8-pool-size='));

function spawnEngine(program: string): ChildProcess {
  return spawn(process.execPath, [...POOL_SIZE_FLAGS, program, ENGINE_ARGUMENT], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
}

/** The engine's first answer: what it was asked to do is done, or why not. */
function firstReply<T extends 'created' | 'ready'>(engine: ChildProcess, request: EngineRequest, expected: T): Promise<Extract<EngineReply, { type: T }>> {
  return new Promise((resolve, reject) => {
    engine.once('message', (message: EngineReply) =>
      message.type === expected ? resolve(message as Extract<EngineReply, { type: T }>) : reject(new Error(`the embedded database did not start: ${message.type === 'failed' ? message.message : message.type}`)),
    );
    engine.once('error', reject);
    engine.once('exit', (code, signal) => reject(new Error(`the embedded database did not start (${signal ?? `exit code ${code}`})`)));
    engine.send(request);
  });
}

/**
 * Creating a new database (initdb) takes about 850 MB that PGlite never gives back, against 300 MB
 * for opening an existing one. A short-lived engine process does the creation, and its memory goes
 * with it; the service then opens the result.
 */
async function create(program: string, pglite: string, directory: string): Promise<void> {
  const engine = spawnEngine(program);
  const exited = new Promise((resolve) => engine.once('exit', resolve));
  const timer = setTimeout(() => engine.kill('SIGKILL'), 120_000);
  try {
    await firstReply(engine, { type: 'create', pglite, directory }, 'created');
  } finally {
    clearTimeout(timer);
    if (engine.connected) engine.disconnect();
    await exited;
  }
}

/**
 * A new database: a copy of a template (initdb takes seconds and the migrations about one more;
 * copying the 40 MB result, half a second). Templates are made once by whichever process needs
 * them first and kept in a cache folder, so every first start and every test's fresh data directory
 * skip both: a pristine one per PGlite version, and from it one per schema. Where a template cannot
 * be made or kept (a read-only install, a migration that fails), the database is created in place
 * and the service's own start applies the migrations, as it would without templates.
 */
async function createDatabase(program: string, pglite: string, directory: string, options: { templates?: string; schema?: Schema }): Promise<void> {
  const templates = options.templates ?? defaultTemplates(pglite);
  const schema = options.schema;
  const template = await (schema === undefined
    ? pristineTemplate(program, pglite, templates)
    : schemaTemplate(templates, pglite, schema).catch(() => pristineTemplate(program, pglite, templates))
  ).catch(() => undefined);
  if (template === undefined) return create(program, pglite, directory);
  await cp(template, directory, { recursive: true });
}

/** How many schema templates are kept (the newest made): a few branches' worth of migrations. */
const SCHEMA_TEMPLATES_KEPT = 4;

/**
 * The pristine database with `schema` applied, made by an engine of its own in a scratch data
 * directory and stopped (so its files are complete) before it is renamed into place.
 */
async function schemaTemplate(templates: string, pglite: string, schema: Schema): Promise<string> {
  const prefix = `schema-pglite-${await pgliteVersion(pglite)}-`;
  const template = join(templates, `${prefix}${createHash('sha256').update(schema.key).digest('hex').slice(0, 16)}`);
  if (await exists(join(template, 'PG_VERSION'))) return template;
  const scratch = `${template}.${randomUUID()}`;
  try {
    const engine = await EmbeddedPostgres.start(scratch, { templates });
    try {
      await schema.apply(engine.url);
    } finally {
      await engine.stop();
    }
    await rename(join(scratch, 'pg'), template);
    await pruneSchemaTemplates(templates, prefix);
  } catch (error) {
    if (!(await exists(join(template, 'PG_VERSION')))) throw error;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return template;
}

/** Removes all but the newest few schema templates (those of earlier migrations). */
async function pruneSchemaTemplates(templates: string, prefix: string): Promise<void> {
  const names = (await readdir(templates)).filter((name) => name.startsWith(prefix) && !name.slice(prefix.length).includes('.'));
  const made = await Promise.all(names.map(async (name) => ({ name, at: (await stat(join(templates, name))).mtimeMs })));
  made.sort((a, b) => b.at - a.at);
  await Promise.all(made.slice(SCHEMA_TEMPLATES_KEPT).map(({ name }) => rm(join(templates, name), { recursive: true, force: true })));
}

/** `node_modules/.cache/stocks-trading-analysis` of the install the engine is loaded from. */
function defaultTemplates(pglite: string): string {
  const marker = `${sep}node_modules${sep}`;
  return join(pglite.slice(0, pglite.lastIndexOf(marker) + marker.length), '.cache', 'stocks-trading-analysis');
}

async function pgliteVersion(pglite: string): Promise<string> {
  const { version } = JSON.parse(await readFile(join(packageRoot(pglite), 'package.json'), 'utf8')) as { version: string };
  return version;
}

async function pristineTemplate(program: string, pglite: string, templates: string): Promise<string> {
  const template = join(templates, `pristine-pglite-${await pgliteVersion(pglite)}`);
  if (await exists(join(template, 'PG_VERSION'))) return template;
  // Made aside and renamed into place, so a process that finds the template finds all of it; when two
  // make one at once, the rename of the second fails and it uses the first's.
  const building = `${template}.${randomUUID()}`;
  await mkdir(building, { recursive: true });
  try {
    await create(program, pglite, building);
    await rename(building, template);
  } catch (error) {
    await rm(building, { recursive: true, force: true });
    if (!(await exists(join(template, 'PG_VERSION')))) throw error;
  }
  return template;
}

/** The package folder of a resolved entry point (`…/node_modules/@electric-sql/pglite/dist/index.js`). */
function packageRoot(entry: string): string {
  const marker = `${sep}node_modules${sep}`;
  const rest = entry.slice(entry.lastIndexOf(marker) + marker.length).split(sep);
  const name = rest[0].startsWith('@') ? rest.slice(0, 2) : rest.slice(0, 1);
  return join(entry.slice(0, entry.lastIndexOf(marker) + marker.length), ...name);
}
