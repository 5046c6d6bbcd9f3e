/** How the service signs in against its OpenID Provider: the external one, or the built-in one. */
export class OidcClientSettings {
  constructor(
    /** Discovery runs against `${issuer}/.well-known/openid-configuration`. */
    readonly issuer: string,
    readonly clientId: string,
    readonly clientSecret: string,
    /** `${PUBLIC_URL}/auth/callback`, as registered at the provider. */
    readonly callbackUrl: string,
    /** Requested scopes; `openid` is always sent. */
    readonly scopes: readonly string[],
    /** `login` for the built-in provider, so every sign-in asks which address to use. */
    readonly prompt: string | undefined,
  ) {}
}
