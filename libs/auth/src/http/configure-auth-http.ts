import secureSession from '@fastify/secure-session';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ConfigError, type AppConfig } from '@app/shared';
import { SessionPolicy } from '../domain/session-policy.js';
import { BUILT_IN_PROVIDER } from '../infrastructure/dev-idp/built-in-provider.token.js';
import { mountDevelopmentIdentityProvider } from '../infrastructure/dev-idp/dev-idp.routes.js';
import type { DevelopmentIdentityProvider } from '../infrastructure/dev-idp/development-identity-provider.js';
import { sessionCookieKey } from '../infrastructure/session-cookie-key.js';
import { SESSION_COOKIE } from './session-cookie.js';

/**
 * The HTTP side of sign-in, set up on the Fastify server before it listens:
 * - the encrypted `session` cookie (@fastify/secure-session): HttpOnly, SameSite=Lax, Secure in
 *   production, path /, lifetime = the idle window (renewed as the session slides);
 * - cross-site request protection for POST/PUT/PATCH/DELETE (Nest's built-in check: Fetch Metadata,
 *   else `Origin` against the request's host or PUBLIC_URL; 403 when it fails);
 * - the built-in development identity provider under /dev-idp, when it is the one in use.
 */
export async function configureAuthHttp(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  checkIssuerTransport(config);
  const lifetime = new SessionPolicy(config.sessionIdleMinutes).cookieLifetimeSeconds;
  await app.register(secureSession, {
    cookieName: SESSION_COOKIE,
    key: await sessionCookieKey(config),
    expiry: lifetime,
    cookie: { path: '/', httpOnly: true, sameSite: 'lax', secure: config.isProduction, maxAge: lifetime },
  });

  app.enableCsrfProtection({ trustedOrigins: [new URL(config.publicUrl).origin] });

  const builtIn = app.get<symbol, DevelopmentIdentityProvider | null>(BUILT_IN_PROVIDER, { strict: false });
  if (builtIn !== null) {
    await builtIn.start();
    mountDevelopmentIdentityProvider(app.getHttpAdapter().getInstance(), builtIn);
  }
}

/**
 * The service trusts the ID token it receives from the token endpoint because that connection is
 * TLS (OIDC Core §3.1.3.7): in production the issuer must be https (a loopback address excepted).
 */
function checkIssuerTransport(config: AppConfig): void {
  if (!config.isProduction || config.oidc === undefined) return;
  const issuer = new URL(config.oidc.issuer);
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(issuer.hostname);
  if (issuer.protocol !== 'https:' && !loopback) {
    throw new ConfigError('OIDC_ISSUER', `must be an https:// address in production (got '${config.oidc.issuer}')`);
  }
}
