import { Injectable } from '@nestjs/common';
import { CompanyProfile, MarketDataProvider, type Urgency } from '../../application/market-data-provider.port.js';
import { PortfolioSettings } from '../../application/portfolio-settings.js';
import { Decimal } from '@app/shared/domain';
import { MarketDataNotConfiguredError, MarketDataUnavailableError } from '../../domain/portfolio.errors.js';
import type { Quote } from '../../domain/quote.js';
import { MarketDataRateLimiter } from '../rate-limit/market-data-rate-limiter.js';

/** Finnhub's `/quote` body: current, change, percent change, high, low, open, previous close, time (s). */
interface FinnhubQuote {
  c?: number | null;
  d?: number | null;
  dp?: number | null;
  h?: number | null;
  l?: number | null;
  o?: number | null;
  pc?: number | null;
  t?: number | null;
}

interface FinnhubProfile {
  name?: string;
  ticker?: string;
}

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

const PAUSED = Symbol('paused');

/**
 * Finnhub (https://finnhub.io/docs/api): `GET /quote` and `GET /stock/profile2`, the key in the
 * `X-Finnhub-Token` header (so it never appears in a URL or a log). Every call waits for the shared rate
 * limiter, is abandoned after `requestTimeoutMs`, and a 429 is retried after the provider's reset time
 * (or a whole window); meanwhile this instance sends nothing else.
 * Finnhub answers an unknown symbol with a quote of zeros, and an empty profile.
 */
@Injectable()
export class FinnhubMarketDataProvider extends MarketDataProvider {
  private pausedUntil = 0;

  constructor(
    private readonly settings: PortfolioSettings,
    private readonly limiter: MarketDataRateLimiter,
  ) {
    super();
  }

  get isConfigured(): boolean {
    return this.settings.finnhubApiKey !== undefined;
  }

  async getQuote(symbol: string, urgency: Urgency): Promise<Quote | null> {
    const body = (await this.get('/quote', symbol, urgency)) as FinnhubQuote;
    const current = number(body.c);
    if (current === null || current <= 0) return null;
    return {
      symbol,
      currentPrice: Decimal.of(current),
      change: decimal(body.d),
      percentChange: decimal(body.dp),
      high: decimal(body.h),
      low: decimal(body.l),
      open: decimal(body.o),
      previousClose: decimal(body.pc),
      quotedAt: body.t ? new Date(body.t * 1000) : null,
    };
  }

  async getProfile(symbol: string, urgency: Urgency): Promise<CompanyProfile | null> {
    const body = (await this.get('/stock/profile2', symbol, urgency)) as FinnhubProfile;
    return typeof body.name === 'string' && body.name.trim() !== '' ? { symbol, name: body.name.trim() } : null;
  }

  private async get(path: string, symbol: string, urgency: Urgency): Promise<unknown> {
    const apiKey = this.settings.finnhubApiKey;
    if (apiKey === undefined) throw new MarketDataNotConfiguredError();
    const url = `${this.settings.finnhubBaseUrl}${path}?symbol=${encodeURIComponent(symbol)}`;

    let rateLimited = 0;
    for (;;) {
      await sleep(this.pausedUntil - Date.now());
      let answer: Answer | typeof PAUSED;
      try {
        // A slot granted while this instance is paused by a 429 is given up, never used late in a burst.
        answer = await this.limiter.schedule<Answer | typeof PAUSED>(urgency, () =>
          Date.now() < this.pausedUntil ? Promise.resolve(PAUSED) : this.fetch(url, apiKey),
        );
      } catch (error) {
        throw this.failure(error, symbol);
      }
      if (answer === PAUSED) continue;
      if (answer.status === 429) {
        rateLimited += 1;
        this.pausedUntil = Math.max(this.pausedUntil, Date.now() + this.retryDelay(answer.headers));
        if (rateLimited > this.settings.maxRateLimitRetries) {
          throw new MarketDataUnavailableError('Market-data provider rate limit reached; try again in a minute', 'rate_limited');
        }
        continue;
      }
      if (answer.status === 401 || answer.status === 403) {
        throw new MarketDataUnavailableError('Market-data provider rejected the API key', 'rejected_key');
      }
      if (answer.status < 200 || answer.status >= 300 || typeof answer.body !== 'object' || answer.body === null) {
        throw new MarketDataUnavailableError(`Market-data provider error (HTTP ${answer.status})`, 'unavailable');
      }
      return answer.body;
    }
  }

  private async fetch(url: string, apiKey: string): Promise<Answer> {
    const response = await fetch(url, {
      headers: { 'X-Finnhub-Token': apiKey, accept: 'application/json' },
      signal: AbortSignal.timeout(this.settings.requestTimeoutMs),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: parseJson(text) };
  }

  /** Finnhub sends `X-Ratelimit-Reset` (epoch seconds); `Retry-After` is honoured too; else one window. */
  private retryDelay(headers: Headers): number {
    const window = this.settings.windowMs;
    const reset = Number(headers.get('x-ratelimit-reset'));
    const retryAfter = Number(headers.get('retry-after'));
    let delay = window;
    if (Number.isFinite(reset) && reset > 0) delay = reset * 1000 - Date.now();
    else if (Number.isFinite(retryAfter) && retryAfter > 0) delay = retryAfter * 1000;
    return Math.min(Math.max(delay, 100), window + this.settings.safetyMarginMs);
  }

  private failure(error: unknown, symbol: string): Error {
    if (error instanceof MarketDataUnavailableError || error instanceof MarketDataNotConfiguredError) return error;
    const name = (error as { name?: string } | null)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      const seconds = this.settings.requestTimeoutMs / 1000;
      return new MarketDataUnavailableError(`Market-data provider did not answer within ${seconds} s (${symbol})`, 'timeout');
    }
    const detail = error instanceof Error ? error.message : String(error);
    return new MarketDataUnavailableError(`Market-data provider unreachable (${detail})`, 'unavailable');
  }
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? null : JSON.parse(text);
  } catch {
    return null;
  }
}

function number(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function decimal(value: unknown): Decimal | null {
  const n = number(value);
  return n === null ? null : Decimal.of(n);
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
