import passport from 'passport';
import type { OidcRequest } from './oidc-request.js';

export type PassportOutcome =
  | { kind: 'redirect'; location: string }
  | { kind: 'success'; user: unknown }
  | { kind: 'fail'; challenge: unknown; status: number | undefined };

/**
 * Runs a registered passport strategy for one request and reports what it decided, instead of
 * letting passport write an Express response. On Fastify there is no Express `res`: passport's
 * redirect calls `res.setHeader`/`res.end`, which this stand-in records; success, failure and
 * errors come through the custom callback.
 */
export function runPassport(strategy: string, req: OidcRequest, options: object): Promise<PassportOutcome> {
  return new Promise<PassportOutcome>((resolve, reject) => {
    const headers = new Map<string, string>();
    const res = {
      statusCode: 200,
      setHeader(name: string, value: string | number): void {
        headers.set(name.toLowerCase(), String(value));
      },
      end(): void {
        const location = headers.get('location');
        if (location !== undefined && this.statusCode >= 300 && this.statusCode < 400) resolve({ kind: 'redirect', location });
        else reject(new Error(`passport ended the response with ${this.statusCode} and no redirect`));
      },
    };
    const middleware = passport.authenticate(strategy, { ...options, session: false }, (error: unknown, user: unknown, challenge: unknown, status: unknown) => {
      if (error) reject(error instanceof Error ? error : new Error(String(error)));
      else if (user) resolve({ kind: 'success', user });
      else resolve({ kind: 'fail', challenge, status: typeof status === 'number' ? status : undefined });
    }) as (req: unknown, res: unknown, next: (error?: unknown) => void) => void;
    middleware(req, res, (error?: unknown) =>
      reject(error instanceof Error ? error : new Error('passport passed the request on without a result')),
    );
  });
}
