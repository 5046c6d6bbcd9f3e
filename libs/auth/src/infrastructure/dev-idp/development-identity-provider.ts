import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { default as Provider, Configuration, KoaContextWithOIDC } from 'oidc-provider';
import type { Database } from '@app/persistence';
import type { AppConfig } from '@app/shared';
import { DEMO_USER_EMAIL, type AllowList } from '../../domain/allow-list.js';
import { expiredInteractionPage, loginFormPage } from './dev-idp.pages.js';
import { loadSigningKey } from './signing-key.js';
import { sqlProviderState } from './sql-provider-state.js';

export const DEV_IDP_PATH = '/dev-idp';
const CLIENT_ID = 'stocks-trading-analysis';
const EMAIL = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;

/** A page to send back, or a response the provider already wrote. */
export type InteractionResponse = { status: number; html: string } | { written: true };

/**
 * The built-in development identity provider: a real OpenID Provider (oidc-provider, a koa app)
 * served by this process under /dev-idp, with the service registered as its one client. Its login
 * screen asks only for an e-mail address. Its state (sessions, codes, grants) is in the service's
 * database, so a sign-in survives a restart; the signing key is kept in DATA_DIR.
 */
export class DevelopmentIdentityProvider {
  readonly issuer: string;
  readonly clientId = CLIENT_ID;
  private secret: string | undefined;
  private readonly logger = new Logger('DevelopmentIdentityProvider');
  private readonly demoEmail: string | undefined;
  private running: { provider: Provider; callback: (req: IncomingMessage, res: ServerResponse) => Promise<void> } | undefined;

  /**
   * The service's client secret at this provider, derived from the signing key: every instance that
   * shares the key (one DATA_DIR) agrees on it, whichever of them the balancer sends the code
   * exchange to. Known once `start` has run.
   */
  get clientSecret(): string {
    if (this.secret === undefined) throw new Error('the development identity provider has not been started');
    return this.secret;
  }

  /** Whether the configuration calls for the built-in provider: no OIDC_ISSUER, and not production. */
  static isWanted(config: AppConfig): boolean {
    return config.oidc === undefined && !config.isProduction;
  }

  constructor(
    private readonly config: AppConfig,
    allowList: AllowList,
    private readonly database: Database,
  ) {
    if (config.isProduction) {
      throw new Error('The built-in development identity provider is refused in production: configure OIDC_ISSUER');
    }
    this.issuer = `${config.publicUrl}${DEV_IDP_PATH}`;
    this.demoEmail = allowList.entries.length === 1 && allowList.entries[0] === DEMO_USER_EMAIL ? DEMO_USER_EMAIL : undefined;
  }

  /** Loads (or creates) the signing key and sets up the provider; before the server listens. */
  async start(): Promise<void> {
    if (this.running !== undefined) return;
    // Loaded only here: production never loads oidc-provider at all.
    const { default: ProviderClass } = await this.quietly(() => import('oidc-provider'));
    const { pem, jwk } = await loadSigningKey(this.config.dataDir);
    const cookieKey = createHash('sha256').update('dev-idp cookies').update(pem).digest('base64url');
    this.secret = createHash('sha256').update('dev-idp client secret').update(pem).digest('base64url');
    const configuration: Configuration = {
      clients: [
        {
          client_id: this.clientId,
          client_secret: this.clientSecret,
          redirect_uris: [`${this.config.publicUrl}/auth/callback`],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      adapter: sqlProviderState(this.database),
      jwks: { keys: [jwk as never] },
      cookies: { keys: [cookieKey] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      features: { devInteractions: { enabled: false } },
      pkce: { required: () => true },
      // Short-lived artefacts: a sign-in takes minutes, and the service keeps none of the tokens.
      ttl: { AccessToken: 300, AuthorizationCode: 60, Grant: 86400, IdToken: 300, Interaction: 600, Session: 86400 },
      interactions: { url: (_ctx, interaction) => `${DEV_IDP_PATH}/interaction/${interaction.uid}` },
      findAccount: (_ctx, sub) => ({
        accountId: sub,
        claims: () => ({ sub, email: sub, email_verified: true, name: sub.split('@')[0] }),
      }),
      // The service is this provider's only, first-party client: no consent screen.
      loadExistingGrant: (ctx) => grantEverythingRequested(ctx),
    };
    const provider = new ProviderClass(this.issuer, configuration);
    provider.on('server_error', (_ctx: unknown, error: Error) => this.logger.error(`provider error: ${error.message}`));
    this.running = { provider, callback: provider.callback() as unknown as (req: IncomingMessage, res: ServerResponse) => Promise<void> };
  }

  /**
   * oidc-provider warns on the console when it is loaded on Node.js 20 (its own support starts at 22;
   * the service runs on 20 and its tests cover this provider there): that goes to the debug log.
   */
  private async quietly<T>(load: () => Promise<T>): Promise<T> {
    const warn = console.warn;
    console.warn = (...parts: unknown[]) => this.logger.debug(parts.map(String).join(' '));
    try {
      return await load();
    } finally {
      console.warn = warn;
    }
  }

  private get started(): NonNullable<DevelopmentIdentityProvider['running']> {
    if (this.running === undefined) throw new Error('the development identity provider has not been started');
    return this.running;
  }

  private get provider(): Provider {
    return this.started.provider;
  }

  /** Serves a provider endpoint; `path` is the request path below /dev-idp. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const original = req.url ?? '/';
    // oidc-provider routes on the path below its mount point, and finds the mount point from `originalUrl`.
    Object.assign(req, { originalUrl: original });
    req.url = original.slice(DEV_IDP_PATH.length) || '/';
    const { callback } = this.started;
    try {
      await callback(req, res);
    } catch (error) {
      this.logger.error(`provider request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) {
        res.statusCode = 500;
        res.end();
      }
    }
  }

  /** GET /dev-idp/interaction/:uid: the login form (or, should the provider ask, consent given at once). */
  async showInteraction(uid: string, req: IncomingMessage, res: ServerResponse): Promise<InteractionResponse> {
    const details = await this.details(uid, req, res);
    if (details === null) return { status: 400, html: expiredInteractionPage() };
    if (details.prompt.name === 'login') {
      return { status: 200, html: loginFormPage({ action: `${DEV_IDP_PATH}/interaction/${uid}`, demoEmail: this.demoEmail }) };
    }
    const accountId = details.session?.accountId;
    if (accountId === undefined) return { status: 400, html: expiredInteractionPage() };
    const grant = new this.provider.Grant({ accountId, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope ?? 'openid'));
    const grantId = await grant.save();
    await this.provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    return { written: true };
  }

  /** POST /dev-idp/interaction/:uid with `email`: signs in as that address. */
  async submitLogin(uid: string, email: string | undefined, req: IncomingMessage, res: ServerResponse): Promise<InteractionResponse> {
    const details = await this.details(uid, req, res);
    if (details === null || details.prompt.name !== 'login') return { status: 400, html: expiredInteractionPage() };
    const address = (email ?? '').trim().toLowerCase();
    if (!EMAIL.test(address)) {
      const page = loginFormPage({ action: `${DEV_IDP_PATH}/interaction/${uid}`, email: email ?? '', error: 'Type an e-mail address such as demo@example.com.', demoEmail: this.demoEmail });
      return { status: 400, html: page };
    }
    await this.provider.interactionFinished(req, res, { login: { accountId: address } }, { mergeWithLastSubmission: false });
    return { written: true };
  }

  private async details(uid: string, req: IncomingMessage, res: ServerResponse) {
    try {
      const details = await this.provider.interactionDetails(req, res);
      return details.uid === uid ? details : null;
    } catch {
      return null;
    }
  }
}

/** Loads the session's grant for the client, or creates one with every scope the request asked for. */
async function grantEverythingRequested(ctx: KoaContextWithOIDC) {
  const clientId = ctx.oidc.client?.clientId;
  const accountId = ctx.oidc.session?.accountId;
  if (clientId === undefined || accountId === undefined) return undefined;
  const existingId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(clientId);
  if (existingId !== undefined) {
    const existing = await ctx.oidc.provider.Grant.find(existingId);
    if (existing !== undefined && existing.accountId === accountId) return existing;
  }
  const grant = new ctx.oidc.provider.Grant({ clientId, accountId });
  grant.addOIDCScope(String(ctx.oidc.params?.scope ?? 'openid'));
  await grant.save();
  return grant;
}
