import { ConfigError, loadConfig } from './app-config.js';

describe('loadConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      nodeEnv: 'development',
      databaseUrl: undefined,
      dataDir: '/srv/app/data',
      sessionIdleMinutes: 120,
      oidc: undefined,
      oidcScopes: ['openid', 'email', 'profile'],
      authorizedUsers: [],
      finnhubBaseUrl: 'https://finnhub.io/api/v1',
      marketDataRequestsPerMinute: 60,
      priceStaleMinutes: 15,
      uploadMaxBytes: 52428800,
      importThreadMinBytes: 33554432,
      logLevel: 'info',
    });
    expect(config.isProduction).toBe(false);
  });

  it('derives PUBLIC_URL from PORT and trims the allow-list to lower case', () => {
    const config = loadConfig({ PORT: '8080', AUTHORIZED_USERS: ' Alice@Example.com ,bob@example.org,' });
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(config.authorizedUsers).toEqual(['alice@example.com', 'bob@example.org']);
  });

  it.each([
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: '3.5' }, 'PORT'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL'],
    [{ SESSION_SECRET: 'short' }, 'SESSION_SECRET'],
    [{ OIDC_ISSUER: 'https://id.example.com' }, 'OIDC_CLIENT_ID'],
    [{ OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'x' }, 'OIDC_CLIENT_SECRET'],
    [{ OIDC_SCOPES: 'email profile' }, 'OIDC_SCOPES'],
    [{ REDIS_URL: 'http://cache' }, 'REDIS_URL'],
    [{ UPLOAD_MAX_BYTES: '0' }, 'UPLOAD_MAX_BYTES'],
    [{ IMPORT_THREAD_MIN_BYTES: '-1' }, 'IMPORT_THREAD_MIN_BYTES'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ MARKET_DATA_REQUESTS_PER_MINUTE: 'many' }, 'MARKET_DATA_REQUESTS_PER_MINUTE'],
    // A shifted clock is for test runs only, and a whole number of minutes.
    [{ TEST_CLOCK_OFFSET_MINUTES: '-60' }, 'TEST_CLOCK_OFFSET_MINUTES'],
    [{ NODE_ENV: 'test', TEST_CLOCK_OFFSET_MINUTES: '1.5' }, 'TEST_CLOCK_OFFSET_MINUTES'],
  ])('refuses %j naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (error) {
      expect((error as ConfigError).variable).toBe(variable);
      expect((error as Error).message).toMatch(new RegExp(`^Invalid configuration: ${variable} `));
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('shifts the clock of a test run by TEST_CLOCK_OFFSET_MINUTES', () => {
    expect(loadConfig({}).clockOffsetMinutes).toBe(0);
    expect(loadConfig({ NODE_ENV: 'test', TEST_CLOCK_OFFSET_MINUTES: '-390' }).clockOffsetMinutes).toBe(-390);
  });

  it('never echoes a database URL, which may hold a password', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://user:s3cret@db:5432/test' }).databaseUrl).toBe('postgres://user:s3cret@db:5432/test');
    for (const DATABASE_URL of ['mysql://user:s3cret@db/test', 'postgres://user:s3cret@db:port/test']) {
      expect(() => loadConfig({ DATABASE_URL })).toThrow(/^Invalid configuration: DATABASE_URL must/);
      expect(() => loadConfig({ DATABASE_URL })).not.toThrow(/s3cret/);
    }
  });

  it('in production requires https, a session secret and an external identity provider', () => {
    const production = { NODE_ENV: 'production', PUBLIC_URL: 'https://journal.example.com' };
    expect(() => loadConfig({ ...production, PUBLIC_URL: 'http://journal.example.com' })).toThrow(/PUBLIC_URL must be an https/);
    expect(() => loadConfig(production)).toThrow(/SESSION_SECRET is required in production/);
    const secret = { SESSION_SECRET: 'x'.repeat(32) };
    expect(() => loadConfig({ ...production, ...secret })).toThrow(/OIDC_ISSUER is required in production/);
    const config = loadConfig({
      ...production,
      ...secret,
      OIDC_ISSUER: 'https://id.example.com/',
      OIDC_CLIENT_ID: 'journal',
      OIDC_CLIENT_SECRET: 'secret',
    });
    expect(config.isProduction).toBe(true);
    expect(config.oidc).toEqual({ issuer: 'https://id.example.com', clientId: 'journal', clientSecret: 'secret' });
  });
});
