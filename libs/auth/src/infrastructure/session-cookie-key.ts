import { hkdfSync, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { AppConfig } from '@app/shared';
import { readOrCreateSecretFile } from './local-secret-file.js';

export const SESSION_SECRET_FILE = 'session-secret';

/**
 * The 32-byte key of the encrypted `session` cookie, derived from SESSION_SECRET (HKDF-SHA256: a
 * long random secret needs no slow password hashing). Outside production SESSION_SECRET may be
 * unset: a random one is then generated once into DATA_DIR/session-secret, so cookies survive restarts.
 */
export async function sessionCookieKey(config: AppConfig): Promise<Buffer> {
  const secret =
    config.sessionSecret ??
    (config.isProduction
      ? undefined
      : await readOrCreateSecretFile(join(config.dataDir, SESSION_SECRET_FILE), () => randomBytes(48).toString('base64url')));
  if (secret === undefined) throw new Error('SESSION_SECRET is required in production');
  return Buffer.from(hkdfSync('sha256', secret, 'stocks-trading-analysis', 'session cookie', 32));
}
