import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readOrCreateSecretFile } from './local-secret-file.js';

describe('readOrCreateSecretFile', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sta-secret-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates the file once, readable by the owner only, and reads it back afterwards', async () => {
    const path = join(dir, 'session-secret');
    const first = await readOrCreateSecretFile(path, () => 'first-value');
    const second = await readOrCreateSecretFile(path, () => 'second-value');
    expect([first, second]).toEqual(['first-value', 'first-value']);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readFile(path, 'utf8')).toBe('first-value');
  });

  it('lets two concurrent starts agree on one value', async () => {
    const path = join(dir, 'key');
    for (let round = 0; round < 300; round += 1) {
      await rm(path, { force: true });
      const values = await Promise.all([1, 2, 3, 4].map((n) => readOrCreateSecretFile(path, async () => `value-${n}`)));
      expect(new Set(values).size).toBe(1);
      expect(await readFile(path, 'utf8')).toBe(values[0]);
    }
    expect(await readdir(dir)).toEqual(['key']); // no drafts left behind
  });

  it('keeps an existing value, e.g. one put there by an operator', async () => {
    const path = join(dir, 'key');
    await writeFile(path, 'operator-value\n');
    expect(await readOrCreateSecretFile(path, () => 'generated')).toBe('operator-value');
  });

  it('answers a created value exactly as every later read will (a PEM ends with a newline)', async () => {
    const path = join(dir, 'key.pem');
    const created = await readOrCreateSecretFile(path, () => '-----BEGIN KEY-----\nabc\n-----END KEY-----\n');
    expect(await readOrCreateSecretFile(path, () => 'other')).toBe(created);
  });
});
