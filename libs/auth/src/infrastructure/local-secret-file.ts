import { randomBytes } from 'node:crypto';
import { link, readFile, unlink, writeFile } from 'node:fs/promises';

/**
 * Reads a secret kept in a file of the data directory, creating it (mode 0600) on first use. Two
 * processes starting at once agree on one value: the value is written whole to a file of its own,
 * then linked into place, which fails if the file exists already; the loser reads the winner's. (A
 * file created in place could be read by the loser while still empty.)
 */
export async function readOrCreateSecretFile(path: string, create: () => Promise<string> | string): Promise<string> {
  const existing = await readIfPresent(path);
  if (existing !== undefined) return existing;
  // What a later read gives back (it trims): the same value on the first start as on every other.
  const value = (await create()).trim();
  const draft = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(draft, value, { mode: 0o600, flag: 'wx' });
  try {
    await link(draft, path);
    return value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const written = await readIfPresent(path);
    if (written === undefined) throw error;
    return written;
  } finally {
    await unlink(draft).catch(() => undefined);
  }
}

async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    const value = (await readFile(path, 'utf8')).trim();
    return value === '' ? undefined : value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
