import { readFile, writeFile } from 'node:fs/promises';

/**
 * Reads a secret kept in a file of the data directory, creating it (mode 0600) on first use. Two
 * processes starting at once agree on one value: the file is created exclusively, and the loser reads it.
 */
export async function readOrCreateSecretFile(path: string, create: () => Promise<string> | string): Promise<string> {
  const existing = await readIfPresent(path);
  if (existing !== undefined) return existing;
  const value = await create();
  try {
    await writeFile(path, value, { mode: 0o600, flag: 'wx' });
    return value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const written = await readIfPresent(path);
    if (written === undefined) throw error;
    return written;
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
