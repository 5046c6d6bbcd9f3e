import { createPrivateKey, generateKeyPair, type JsonWebKey } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readOrCreateSecretFile } from '../local-secret-file.js';

export const SIGNING_KEY_FILE = 'dev-idp-signing-key.pem';

const generateKeyPairAsync = promisify(generateKeyPair);

/**
 * The built-in provider's RS256 signing key, generated once into DATA_DIR (PKCS#8 PEM, mode 0600)
 * and read back from there, so its tokens and cookies stay valid across restarts. Generated as PEM
 * and re-imported: exporting a freshly generated RSA key straight to JWK can hang on Node 20.
 */
export async function loadSigningKey(dataDir: string): Promise<{ pem: string; jwk: JsonWebKey }> {
  const pem = await readOrCreateSecretFile(join(dataDir, SIGNING_KEY_FILE), async () => {
    const { privateKey } = await generateKeyPairAsync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    return privateKey;
  });
  const jwk = createPrivateKey(pem).export({ format: 'jwk' });
  return { pem, jwk: { ...jwk, use: 'sig', alg: 'RS256' } };
}
