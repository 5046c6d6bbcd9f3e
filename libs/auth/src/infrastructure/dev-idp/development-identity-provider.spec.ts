import type { Database } from '@app/persistence';
import { loadConfig } from '@app/shared';
import { AllowList } from '../../domain/allow-list.js';
import { DevelopmentIdentityProvider } from './development-identity-provider.js';

/** These checks never start the provider, so it never reaches its storage. */
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

  it('is the issuer at PUBLIC_URL/dev-idp, with a random client secret', () => {
    const provider = new DevelopmentIdentityProvider(loadConfig({ PORT: '4000' }), new AllowList([]), NOT_STARTED);
    expect(provider.issuer).toBe('http://localhost:4000/dev-idp');
    expect(provider.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
