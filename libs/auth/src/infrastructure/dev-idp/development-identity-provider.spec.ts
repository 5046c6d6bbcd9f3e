import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '@app/persistence';
import { loadConfig } from '@app/shared';
import { AllowList } from '../../domain/allow-list.js';
import { DevelopmentIdentityProvider } from './development-identity-provider.js';

/** These checks never serve a request, so the provider never reaches its storage. */
const NOT_STARTED = undefined as unknown as Database;

describe('DevelopmentIdentityProvider', () => {
  const production = Object.assign(Object.create(Object.getPrototypeOf(loadConfig({}))), {
    ...loadConfig({}),
    nodeEnv: 'production',
    oidc: undefined,
  });

  it('is wanted only without OIDC_ISSUER and outside production', () => {
    expect(DevelopmentIdentityProvider.isWanted(loadConfig({}))).toBe(true);
    expect(DevelopmentIdentityProvider.isWanted(loadConfig({ NODE_ENV: 'test' }))).toBe(true);
    expect(
      DevelopmentIdentityProvider.isWanted(loadConfig({ OIDC_ISSUER: 'https://idp.example', OIDC_CLIENT_ID: 'a', OIDC_CLIENT_SECRET: 'b' })),
    ).toBe(false);
    expect(DevelopmentIdentityProvider.isWanted(production)).toBe(false);
  });

  it('refuses to exist in production, whatever the configuration says', () => {
    expect(production.isProduction).toBe(true);
    expect(() => new DevelopmentIdentityProvider(production, new AllowList([]), NOT_STARTED)).toThrow(/refused in production/);
  });

  it('is the issuer at PUBLIC_URL/dev-idp, with a client secret every instance sharing its key agrees on', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sta-dev-idp-'));
    try {
      const config = loadConfig({ PORT: '4000', DATA_DIR: dataDir });
      const [one, another] = [1, 2].map(() => new DevelopmentIdentityProvider(config, new AllowList([]), NOT_STARTED));
      expect(one.issuer).toBe('http://localhost:4000/dev-idp');
      expect(() => one.clientSecret).toThrow(/not been started/);
      await one.start();
      await another.start();
      expect(one.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(another.clientSecret).toBe(one.clientSecret);
      const elsewhere = await mkdtemp(join(tmpdir(), 'sta-dev-idp-'));
      const stranger = new DevelopmentIdentityProvider(loadConfig({ DATA_DIR: elsewhere }), new AllowList([]), NOT_STARTED);
      await stranger.start();
      expect(stranger.clientSecret).not.toBe(one.clientSecret);
      await rm(elsewhere, { recursive: true, force: true });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
