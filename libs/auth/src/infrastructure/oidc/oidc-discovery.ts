import { IdentityProviderUnavailableError } from '../../domain/auth.errors.js';

/** The parts of an OpenID Provider's metadata the authorization-code flow uses. */
export interface ProviderMetadata {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userinfoEndpoint: string | undefined;
  codeChallengeMethods: readonly string[];
}

const TIMEOUT_MS = 5000;

/** OpenID Connect Discovery 1.0: fetches and checks `${issuer}/.well-known/openid-configuration`. */
export async function discoverProvider(issuer: string, fetchImpl: typeof fetch = fetch): Promise<ProviderMetadata> {
  const address = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  let document: Record<string, unknown>;
  try {
    const response = await fetchImpl(address, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    document = (await response.json()) as Record<string, unknown>;
  } catch (error) {
    throw new IdentityProviderUnavailableError(
      `The identity provider's discovery document could not be read from ${address} (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const text = (name: string): string | undefined => (typeof document[name] === 'string' ? (document[name] as string) : undefined);
  const required = (name: string): string => {
    const value = text(name);
    if (value === undefined) throw new IdentityProviderUnavailableError(`The identity provider's discovery document lacks '${name}'`);
    return value;
  };
  const announced = required('issuer');
  // OpenID Connect Discovery 1.0 §4.3: the issuer in the document must be exactly the one asked for.
  if (announced.replace(/\/+$/, '') !== issuer.replace(/\/+$/, '')) {
    throw new IdentityProviderUnavailableError(`The identity provider announces issuer '${announced}', but OIDC_ISSUER is '${issuer}'`);
  }
  const methods = document.code_challenge_methods_supported;
  return {
    issuer: announced,
    authorizationEndpoint: required('authorization_endpoint'),
    tokenEndpoint: required('token_endpoint'),
    userinfoEndpoint: text('userinfo_endpoint'),
    codeChallengeMethods: Array.isArray(methods) ? methods.filter((m): m is string => typeof m === 'string') : [],
  };
}
