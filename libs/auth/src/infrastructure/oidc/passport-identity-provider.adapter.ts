import { Injectable, Logger } from '@nestjs/common';
import { IdentityProvider, type BrowserSignInSlot, type CallbackQuery } from '../../application/identity-provider.port.js';
import { codeChallengeOf, randomToken } from '../../application/secrets.js';
import { SignInStates } from '../../application/sign-in-states.service.js';
import { IdentityProviderUnavailableError, SignInRejectedError, SignInStateError } from '../../domain/auth.errors.js';
import type { VerifiedIdentity } from '../../domain/verified-identity.js';
import { DatabaseStateStore } from './database-state-store.js';
import { OidcClientSettings } from './oidc-client-settings.js';
import { discoverProvider, type ProviderMetadata } from './oidc-discovery.js';
import type { OidcRequest } from './oidc-request.js';
import { OIDC_STRATEGY, OpenIdConnectStrategy, type OidcAuthenticateOptions } from './openid-connect.strategy.js';
import { runPassport } from './passport-runner.js';

/**
 * The identity provider port on passport-openidconnect. Discovery runs on first use rather than at
 * start-up: the built-in provider is served by this very process, which is not listening yet while
 * it starts, and an external provider being down must not stop the service from starting.
 */
@Injectable()
export class PassportIdentityProvider extends IdentityProvider {
  private readonly logger = new Logger('SignIn');
  private ready: Promise<ProviderMetadata> | undefined;

  constructor(
    private readonly settings: OidcClientSettings,
    private readonly states: SignInStates,
  ) {
    super();
  }

  async startSignIn(browser: BrowserSignInSlot): Promise<string> {
    const metadata = await this.strategy();
    const usePkce = metadata.codeChallengeMethods.length === 0 || metadata.codeChallengeMethods.includes('S256');
    const codeVerifier = usePkce ? randomToken() : undefined;
    const req = this.request({}, browser, codeVerifier);
    const options: OidcAuthenticateOptions = { codeChallenge: codeVerifier && codeChallengeOf(codeVerifier) };
    const outcome = await runPassport(OIDC_STRATEGY, req, options);
    if (outcome.kind !== 'redirect') throw new Error(`the sign-in strategy did not redirect (${outcome.kind})`);
    return outcome.location;
  }

  async completeSignIn(query: CallbackQuery, browser: BrowserSignInSlot): Promise<VerifiedIdentity> {
    checkCallbackQuery(query);
    await this.strategy();
    const req = this.request(query, browser, undefined);
    let outcome;
    try {
      outcome = await runPassport(OIDC_STRATEGY, req, {});
    } catch (error) {
      throw this.explain(error);
    }
    if (outcome.kind === 'success') return outcome.user as VerifiedIdentity;
    if (outcome.kind === 'fail') {
      if (req.signIn.stateError !== undefined) throw req.signIn.stateError;
      const message = (outcome.challenge as { message?: unknown } | undefined)?.message;
      throw new SignInRejectedError(`Sign-in refused: ${typeof message === 'string' && message !== '' ? message : 'the identity provider did not sign you in'}`);
    }
    throw new SignInRejectedError('Sign-in refused: the request did not come back from the identity provider');
  }

  /** Discovers the provider and registers the strategy, once; a failed discovery is retried next time. */
  private strategy(): Promise<ProviderMetadata> {
    this.ready ??= discoverProvider(this.settings.issuer).then(
      (metadata) => {
        // Constructing it registers it with passport under OIDC_STRATEGY (@nestjs/passport's mixin).
        new OpenIdConnectStrategy(this.settings, metadata, new DatabaseStateStore(this.states));
        this.logger.log(`signing in with ${metadata.issuer}`);
        return metadata;
      },
      (error: unknown) => {
        this.ready = undefined;
        throw error;
      },
    );
    return this.ready;
  }

  private request(query: CallbackQuery, browser: BrowserSignInSlot, codeVerifier: string | undefined): OidcRequest {
    return { query, headers: {}, url: '/auth/callback', signIn: { browser, codeVerifier } };
  }

  /** Errors of the code exchange, in words for the user; never the provider's tokens. */
  private explain(error: unknown): Error {
    if (error instanceof SignInStateError || error instanceof SignInRejectedError) return error;
    const name = (error as { name?: unknown } | null)?.name;
    const code = (error as { code?: unknown } | null)?.code;
    if (name === 'TokenError') {
      return new SignInRejectedError(`Sign-in refused: the identity provider did not accept the authorization code (${String(code ?? 'invalid_grant')})`);
    }
    if (name === 'AuthorizationError') {
      return new SignInRejectedError(`Sign-in refused by the identity provider (${String(code ?? 'error')})`);
    }
    if (name === 'InternalOAuthError') {
      this.logger.warn(`identity provider request failed: ${(error as Error).message}`);
      return new IdentityProviderUnavailableError('The identity provider could not be reached to complete the sign-in');
    }
    return error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * A callback must carry one `state` and either one `code` or the provider's `error`. (Without a
 * code, passport-openidconnect would start a new sign-in instead of refusing.)
 */
function checkCallbackQuery(query: CallbackQuery): void {
  const single = (name: string): boolean => typeof query[name] === 'string' && query[name] !== '';
  if (!single('state')) throw new SignInStateError('Invalid sign-in request: the state is missing. Start again at /login.');
  if (!single('code') && !single('error')) throw new SignInRejectedError('Invalid sign-in request: the authorization code is missing. Start again at /login.');
}
