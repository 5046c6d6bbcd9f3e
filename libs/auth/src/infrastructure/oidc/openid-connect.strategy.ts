import type { Request } from 'express';
import { PassportStrategy } from '@nestjs/passport';
import type { OAuth2 } from 'oauth';
import OpenIDConnectStrategy from 'passport-openidconnect';
import { SignInRejectedError } from '../../domain/auth.errors.js';
import { identityFromClaims, type IdentityClaims, type VerifiedIdentity } from '../../domain/verified-identity.js';
import type { OidcClientSettings } from './oidc-client-settings.js';
import type { ProviderMetadata } from './oidc-discovery.js';
import type { OidcRequest } from './oidc-request.js';

/** The name the strategy is registered under with passport. */
export const OIDC_STRATEGY = 'oidc';

/** The passport-openidconnect state-store interface (its default one needs express-session). */
export interface StateStore {
  store(req: OidcRequest, ctx: { nonce?: string }, appState: unknown, meta: unknown, done: (error: Error | null, handle?: string) => void): void;
  verify(req: OidcRequest, handle: string, done: (error: Error | null, ctx?: false | { nonce?: string }, info?: unknown) => void): void;
}

/** Options passed per call to `passport.authenticate` for this strategy. */
export interface OidcAuthenticateOptions extends OpenIDConnectStrategy.AuthenticateOptions {
  /** RFC 7636 S256 challenge of the verifier the state store keeps; absent: no PKCE. */
  codeChallenge?: string;
}

/**
 * passport-openidconnect 0.1 (authorization-code flow, `state`, `nonce`, ID token checks of OIDC
 * Core §3.1.3.7 except the signature, which TLS to the token endpoint stands in for) with the two
 * things it lacks added here:
 * - PKCE: the challenge goes into the authorization request (`authorizationParams`), and the verifier
 *   into the token request, taken from the state the callback redeemed.
 * - Claims from the UserInfo endpoint when the ID token carries no e-mail (providers that follow OIDC
 *   Core §5.4 strictly put scope claims only there).
 * Registered with passport through @nestjs/passport's mixin, which turns `validate` into the verify callback.
 */
export class OpenIdConnectStrategy extends PassportStrategy(OpenIDConnectStrategy, OIDC_STRATEGY, true) {
  constructor(settings: OidcClientSettings, metadata: ProviderMetadata, store: StateStore) {
    const options = {
      issuer: metadata.issuer,
      authorizationURL: metadata.authorizationEndpoint,
      tokenURL: metadata.tokenEndpoint,
      userInfoURL: metadata.userinfoEndpoint ?? '',
      clientID: settings.clientId,
      clientSecret: settings.clientSecret,
      callbackURL: settings.callbackUrl,
      // The strategy puts `openid` in front of these itself.
      scope: settings.scopes.filter((scope) => scope !== 'openid'),
      prompt: settings.prompt,
      // Any truthy value: the strategy sends a fresh random nonce with each authorization request,
      // the state store keeps it, and the ID token must carry it back.
      nonce: 'per-request',
      store,
      // Typed as a boolean, but the strategy also takes a function of the ID token's claims.
      skipUserProfile: ((_req: unknown, claims: IdentityClaims) =>
        typeof claims.email === 'string' || metadata.userinfoEndpoint === undefined) as unknown as boolean,
    };
    super(options as unknown as OpenIDConnectStrategy.StrategyOptions);
  }

  /**
   * The verify step, with the strategy's 9-argument signature (`uiProfile` is the UserInfo
   * response, when it was fetched). The tokens end here: nothing keeps them.
   */
  validate(
    _issuer: string,
    userInfo: { _json?: Record<string, unknown> } | undefined,
    _idProfile: unknown,
    _context: unknown,
    idToken: string,
    _accessToken: unknown,
    _refreshToken: unknown,
    _params: unknown,
  ): VerifiedIdentity {
    const claims = decodePayload(idToken);
    const fromUserInfo = userInfo?._json;
    // OIDC Core §5.3.2: UserInfo claims count only when they are about the same subject.
    if (fromUserInfo !== undefined && fromUserInfo.sub !== claims.sub) {
      throw new SignInRejectedError('The identity provider returned UserInfo for another subject');
    }
    return identityFromClaims({ ...claims, ...(fromUserInfo ?? {}) });
  }

  override authorizationParams(options?: OidcAuthenticateOptions): object {
    return options?.codeChallenge === undefined ? {} : { code_challenge: options.codeChallenge, code_challenge_method: 'S256' };
  }

  /**
   * Passport calls this on a per-request copy of the strategy (`Object.create`), so shadowing
   * `_oauth2` here affects this request only: its token request carries this request's verifier.
   */
  override authenticate(req: Request, options?: OidcAuthenticateOptions): void {
    this._oauth2 = withCodeVerifier(this._oauth2, req as unknown as OidcRequest);
    super.authenticate(req, options);
  }
}

function withCodeVerifier(client: OAuth2, req: OidcRequest): OAuth2 {
  const perRequest = Object.create(client) as OAuth2;
  perRequest.getOAuthAccessToken = ((code: string, params: Record<string, string>, callback: Parameters<OAuth2['getOAuthAccessToken']>[1]) => {
    const verifier = req.signIn.codeVerifier;
    const withVerifier = verifier === undefined ? params : { ...params, code_verifier: verifier };
    client.getOAuthAccessToken(code, withVerifier, callback as never);
  }) as OAuth2['getOAuthAccessToken'];
  return perRequest;
}

/** The ID token's claims. Its integrity rests on TLS to the token endpoint (OIDC Core §3.1.3.7 item 6). */
function decodePayload(idToken: string): IdentityClaims & Record<string, unknown> {
  const payload = idToken.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as IdentityClaims & Record<string, unknown>;
}
