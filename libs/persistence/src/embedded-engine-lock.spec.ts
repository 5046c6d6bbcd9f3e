import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINE_ARGUMENT } from './embedded-engine.js';
import { waitForEarlierEngine } from './embedded-postgres.js';

/** A process that looks like an engine (its command line holds the engine's argument) and lives `ms`. */
async function fakeEngine(ms: number, argument = ENGINE_ARGUMENT): Promise<{ child: ChildProcess; exited: Promise<number> }> {
  const child = spawn(process.execPath, ['-e', `setTimeout(() => {}, ${ms})`, '--', argument], { stdio: 'ignore' });
  const started = Date.now();
  const exited = new Promise<number>((resolve) => child.once('exit', () => resolve(Date.now() - started)));
  await new Promise((resolve) => child.once('spawn', resolve));
  return { child, exited };
}

/** Whether `pid` is a running process whose command line holds the engine's argument (Linux). */
async function runningEngine(pid: number | undefined): Promise<boolean> {
  const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  return commandLine.split('\0').includes(ENGINE_ARGUMENT);
}

describe('a new embedded engine and the one an earlier run left', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sta-engine-lock-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('waits until the earlier engine has exited', async () => {
    const { child, exited } = await fakeEngine(700);
    await writeFile(join(dir, 'pg-engine.pid'), String(child.pid));
    expect(await runningEngine(child.pid)).toBe(true);
    await waitForEarlierEngine(join(dir, 'pg-engine.pid'));
    expect(await runningEngine(child.pid)).toBe(false);
    await exited;
    expect(child.exitCode).toBe(0); // it ended on its own, not stopped
  });

  it('refuses to start beside an engine that does not go (another instance on the same files), and leaves it alone', async () => {
    const { child, exited } = await fakeEngine(60_000);
    await writeFile(join(dir, 'pg-engine.pid'), String(child.pid));
    await expect(waitForEarlierEngine(join(dir, 'pg-engine.pid'), 200)).rejects.toThrow(`is open in another process (its engine, pid ${child.pid}, is still running)`);
    expect(await runningEngine(child.pid)).toBe(true);
    child.kill('SIGKILL');
    await exited;
  });

  it('does not wait for a process that is no engine, a dead one or a missing file', async () => {
    const { child, exited } = await fakeEngine(60_000, '--something-else');
    await writeFile(join(dir, 'pg-engine.pid'), String(child.pid));
    await waitForEarlierEngine(join(dir, 'pg-engine.pid'), 5_000);
    await waitForEarlierEngine(join(dir, 'no-such.pid'), 5_000);
    await writeFile(join(dir, 'dead.pid'), '999999999');
    await waitForEarlierEngine(join(dir, 'dead.pid'), 5_000);
    // Left alone, though it outlived all three.
    expect(child.exitCode).toBeNull();
    expect(child.signalCode).toBeNull();
    child.kill('SIGKILL');
    await exited;
  });
});
