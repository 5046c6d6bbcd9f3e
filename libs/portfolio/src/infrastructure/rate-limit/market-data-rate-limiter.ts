import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import Bottleneck from 'bottleneck';
import { Redis } from 'ioredis';
import type { Urgency } from '../../application/market-data-provider.port.js';

/** At most `requests` provider calls in any `windowMs`; `safetyMarginMs` absorbs network jitter. */
export interface RateBudget {
  readonly requests: number;
  readonly windowMs: number;
  readonly safetyMarginMs: number;
}

const PRIORITY: Record<Urgency, number> = { interactive: 3, background: 7 };
const READY_TIMEOUT_MS = 5_000;
const REDIS_STATE_TTL_MS = 60 * 60_000;

/**
 * Bottleneck settings for a token bucket that never starts more than `requests` jobs in any window of
 * `windowMs + safetyMarginMs`: a burst of up to a sixth of the budget at once (a small portfolio is
 * priced without waiting), the rest dripping in evenly. In any such window at most `burst` tokens were
 * saved up and at most `requests − burst` were added, so the sum never exceeds the budget. A budget of
 * one is spaced instead.
 */
export function bucketSettings(budget: RateBudget): Bottleneck.ConstructorOptions {
  const span = budget.windowMs + budget.safetyMarginMs;
  if (budget.requests === 1) return { minTime: span, heartbeatInterval: 250 };
  const burst = Math.max(1, Math.floor(budget.requests / 6));
  const interval = Math.ceil(span / (budget.requests - burst));
  return {
    reservoir: burst,
    reservoirIncreaseAmount: 1,
    reservoirIncreaseInterval: interval,
    reservoirIncreaseMaximum: burst,
    // Increments are applied on the heartbeat: beat often enough not to waste the budget.
    heartbeatInterval: Math.min(250, Math.max(10, Math.floor(interval / 4))),
  };
}

/**
 * The one rate limiter every market-data provider call goes through. Local to the process, or, with
 * `redisUrl`, shared by every instance using the same Redis (Bottleneck clustering; the budget's id
 * includes a hash of the API key, so deployments with different keys keep separate budgets).
 */
export class MarketDataRateLimiter {
  private readonly logger = new Logger('MarketDataRateLimiter');
  private readonly limiter: Bottleneck;
  private readonly connection: Bottleneck.IORedisConnection | undefined;
  private readonly ready: Promise<unknown>;

  constructor(
    readonly budget: RateBudget,
    options: { redisUrl?: string; id?: string } = {},
  ) {
    const settings = bucketSettings(budget);
    if (options.redisUrl === undefined) {
      this.limiter = new Bottleneck(settings);
      this.ready = Promise.resolve();
    } else {
      const client = new Redis(options.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: false });
      this.connection = new Bottleneck.IORedisConnection({ client });
      // ioredis reconnects by itself; say so once per outage rather than on every retry.
      let reported = false;
      client.on('ready', () => (reported = false));
      this.connection.on('error', (error: unknown) => {
        if (!reported) this.logger.warn(`Redis unreachable, provider calls wait for it: ${describe(error)}`);
        reported = true;
      });
      this.limiter = new Bottleneck({
        ...settings,
        id: options.id ?? 'market-data',
        datastore: 'ioredis',
        connection: this.connection,
        clearDatastore: false,
        timeout: REDIS_STATE_TTL_MS,
      });
      this.ready = this.limiter.ready();
    }
    this.ready.catch(() => undefined);
    this.limiter.on('error', (error: unknown) => this.logger.warn(`rate limiter: ${describe(error)}`));
  }

  get clustered(): boolean {
    return this.connection !== undefined;
  }

  /** Runs `call` when the budget allows; interactive calls go before queued background ones. */
  async schedule<T>(urgency: Urgency, call: () => Promise<T>): Promise<T> {
    await withTimeout(this.ready, READY_TIMEOUT_MS, 'the shared rate limiter (Redis) is not reachable');
    return this.limiter.schedule({ priority: PRIORITY[urgency] }, call);
  }

  /** Drops queued calls (they fail) and closes the Redis connection. */
  async stop(): Promise<void> {
    const quietly = (work: () => Promise<unknown> | undefined) =>
      withTimeout(Promise.resolve().then(work), READY_TIMEOUT_MS, 'timed out').catch(() => undefined);
    await quietly(() => this.limiter.stop({ dropWaitingJobs: true, dropErrorMessage: 'shutting down' }));
    await quietly(() => this.limiter.disconnect(false));
    // The connection was handed to the limiter, so the limiter leaves it open: close it here.
    await quietly(() => this.connection?.disconnect(false));
  }
}

/** A Bottleneck id naming the budget: same key and settings → same shared budget. */
export function budgetId(apiKey: string | undefined, budget: RateBudget): string {
  const key = createHash('sha256').update(apiKey ?? '').digest('hex').slice(0, 12);
  return `market-data:finnhub:${key}:${budget.requests}per${budget.windowMs}ms`;
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(message)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
