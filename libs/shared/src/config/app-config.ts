import { isAbsolute, resolve } from 'node:path';

/** Invalid configuration: one line naming the variable, printed before start-up is abandoned. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`Invalid configuration: ${variable} ${reason}`);
    this.name = 'ConfigError';
  }
}

export type NodeEnv = 'development' | 'production' | 'test';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/**
 * The validated settings of ../shared/spec/decisions.md §1. An abstract class so it doubles as the DI token;
 * the composition root provides the instance that `loadConfig` built.
 */
export abstract class AppConfig {
  abstract readonly port: number;
  abstract readonly host: string;
  abstract readonly publicUrl: string;
  abstract readonly nodeEnv: NodeEnv;
  /** Unset: the embedded PostgreSQL under `dataDir`. */
  abstract readonly databaseUrl: string | undefined;
  abstract readonly dataDir: string;
  /** Unset outside production: generated once into `dataDir`. */
  abstract readonly sessionSecret: string | undefined;
  abstract readonly sessionIdleMinutes: number;
  /** Unset outside production: the built-in development identity provider. */
  abstract readonly oidc: OidcSettings | undefined;
  abstract readonly oidcScopes: string[];
  /** Lower-cased, trimmed e-mail addresses. */
  abstract readonly authorizedUsers: string[];
  abstract readonly finnhubApiKey: string | undefined;
  abstract readonly finnhubBaseUrl: string;
  abstract readonly marketDataRequestsPerMinute: number;
  abstract readonly redisUrl: string | undefined;
  abstract readonly priceStaleMinutes: number;
  abstract readonly uploadMaxBytes: number;
  /**
   * Uploads of at least this many bytes (their files together) are imported on a worker thread of
   * their own (`IMPORT_THREAD_MIN_BYTES`; 0: every upload): docs/operations.md "Large uploads on a
   * thread of their own".
   */
  abstract readonly importThreadMinBytes: number;
  abstract readonly logLevel: LogLevel;
  /**
   * Test runs only (`TEST_CLOCK_OFFSET_MINUTES`, refused unless NODE_ENV=test): the service's clock
   * runs this many minutes from the system's, so behaviour tied to the time of day (the end-of-day
   * snapshot, due only outside market hours) can be tested at any hour.
   */
  abstract readonly clockOffsetMinutes: number;

  get isProduction(): boolean {
    return this.nodeEnv === 'production';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const NODE_ENVS: readonly NodeEnv[] = ['development', 'production', 'test'];
const EMAIL = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;

/** Reads and validates the environment; throws `ConfigError` on the first invalid variable. */
export function loadConfig(env: Env = process.env, cwd = process.cwd()): AppConfig {
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };

  const nodeEnv = oneOf(read, 'NODE_ENV', NODE_ENVS, 'development');
  const production = nodeEnv === 'production';
  const port = integer(read, 'PORT', 3000, 0, 65535);
  const host = read('HOST') ?? '127.0.0.1';

  const publicUrl = url(read, 'PUBLIC_URL', `http://localhost:${port}`, ['http:', 'https:']).replace(/\/+$/, '');
  if (production && !publicUrl.startsWith('https:')) {
    throw new ConfigError('PUBLIC_URL', `must be an https:// address in production (got '${publicUrl}')`);
  }

  const offset = read('TEST_CLOCK_OFFSET_MINUTES');
  if (offset !== undefined && nodeEnv !== 'test') {
    throw new ConfigError('TEST_CLOCK_OFFSET_MINUTES', `is for test runs only (NODE_ENV=test); here NODE_ENV is '${nodeEnv}'`);
  }
  if (offset !== undefined && !/^-?\d{1,7}$/.test(offset)) {
    throw new ConfigError('TEST_CLOCK_OFFSET_MINUTES', `must be a whole number of minutes (got '${offset}')`);
  }
  const clockOffsetMinutes = offset === undefined ? 0 : Number(offset);

  const databaseUrl = read('DATABASE_URL');
  if (databaseUrl !== undefined) url(read, 'DATABASE_URL', undefined, ['postgres:', 'postgresql:'], true);

  const dataDirRaw = read('DATA_DIR') ?? './data';
  const dataDir = isAbsolute(dataDirRaw) ? dataDirRaw : resolve(cwd, dataDirRaw);

  const sessionSecret = read('SESSION_SECRET');
  if (sessionSecret !== undefined && sessionSecret.length < 32) {
    throw new ConfigError('SESSION_SECRET', `must be at least 32 characters long (got ${sessionSecret.length})`);
  }
  if (production && sessionSecret === undefined) {
    throw new ConfigError('SESSION_SECRET', 'is required in production (at least 32 random characters)');
  }

  const issuer = read('OIDC_ISSUER');
  let oidc: OidcSettings | undefined;
  if (issuer !== undefined) {
    url(read, 'OIDC_ISSUER', undefined, ['http:', 'https:'], true);
    const clientId = read('OIDC_CLIENT_ID');
    const clientSecret = read('OIDC_CLIENT_SECRET');
    if (clientId === undefined) throw new ConfigError('OIDC_CLIENT_ID', 'is required when OIDC_ISSUER is set');
    if (clientSecret === undefined) {
      throw new ConfigError('OIDC_CLIENT_SECRET', 'is required when OIDC_ISSUER is set');
    }
    oidc = { issuer: issuer.replace(/\/+$/, ''), clientId, clientSecret };
  } else if (production) {
    throw new ConfigError(
      'OIDC_ISSUER',
      'is required in production (the built-in development identity provider is refused there)',
    );
  }

  const oidcScopes = (read('OIDC_SCOPES') ?? 'openid email profile').split(/[\s,]+/).filter(Boolean);
  if (!oidcScopes.includes('openid')) throw new ConfigError('OIDC_SCOPES', "must include 'openid'");

  const authorizedUsers = (read('AUTHORIZED_USERS') ?? '')
    .split(',')
    .map((address) => address.trim().toLowerCase())
    .filter(Boolean);
  const badAddress = authorizedUsers.find((address) => !EMAIL.test(address));
  if (badAddress !== undefined) {
    throw new ConfigError('AUTHORIZED_USERS', `must be a comma-separated list of e-mail addresses ('${badAddress}' is not one)`);
  }

  const redisUrl = read('REDIS_URL');
  if (redisUrl !== undefined) url(read, 'REDIS_URL', undefined, ['redis:', 'rediss:'], true);

  return new (class extends AppConfig {
    readonly port = port;
    readonly host = host;
    readonly publicUrl = publicUrl;
    readonly nodeEnv = nodeEnv;
    readonly databaseUrl = databaseUrl;
    readonly dataDir = dataDir;
    readonly sessionSecret = sessionSecret;
    readonly sessionIdleMinutes = integer(read, 'SESSION_IDLE_MINUTES', 120, 1, 525600);
    readonly oidc = oidc;
    readonly oidcScopes = oidcScopes;
    readonly authorizedUsers = authorizedUsers;
    readonly finnhubApiKey = read('FINNHUB_API_KEY');
    readonly finnhubBaseUrl = url(read, 'FINNHUB_BASE_URL', 'https://finnhub.io/api/v1', ['http:', 'https:']).replace(/\/+$/, '');
    readonly marketDataRequestsPerMinute = integer(read, 'MARKET_DATA_REQUESTS_PER_MINUTE', 60, 1, 100000);
    readonly redisUrl = redisUrl;
    readonly priceStaleMinutes = integer(read, 'PRICE_STALE_MINUTES', 15, 1, 525600);
    readonly uploadMaxBytes = integer(read, 'UPLOAD_MAX_BYTES', 52428800, 1, 2 ** 31 - 1);
    readonly importThreadMinBytes = integer(read, 'IMPORT_THREAD_MIN_BYTES', 33554432, 0, 2 ** 53 - 1);
    readonly logLevel = oneOf(read, 'LOG_LEVEL', LOG_LEVELS, 'info');
    readonly clockOffsetMinutes = clockOffsetMinutes;
  })();
}

function integer(read: (n: string) => string | undefined, name: string, fallback: number, min: number, max: number): number {
  const raw = read(name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be a whole number from ${min} to ${max} (got '${raw}')`);
  }
  return Number(raw);
}

function oneOf<T extends string>(read: (n: string) => string | undefined, name: string, allowed: readonly T[], fallback: T): T {
  const raw = read(name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')} (got '${raw}')`);
  }
  return raw as T;
}

function url(
  read: (n: string) => string | undefined,
  name: string,
  fallback: string | undefined,
  protocols: string[],
  hideValue = false,
): string {
  const raw = read(name) ?? fallback;
  if (raw === undefined) throw new ConfigError(name, 'is required');
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    // Connection strings may carry passwords: never echo them.
    throw new ConfigError(name, `must be a URL${hideValue ? '' : ` (got '${raw}')`}`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  }
  return raw;
}
