import { IdentityProviderUnavailableError } from '../../domain/auth.errors.js';
import { discoverProvider } from './oidc-discovery.js';

const ISSUER = 'https://idp.example.com/realms/journal';
const DOCUMENT = {
  issuer: ISSUER,
  authorization_endpoint: `${ISSUER}/protocol/openid-connect/auth`,
  token_endpoint: `${ISSUER}/protocol/openid-connect/token`,
  userinfo_endpoint: `${ISSUER}/protocol/openid-connect/userinfo`,
  code_challenge_methods_supported: ['plain', 'S256'],
};

const serving = (body: unknown, status = 200) => {
  const asked: string[] = [];
  const fetchImpl = (async (url: string) => {
    asked.push(url);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
  return { asked, fetchImpl };
};

describe('discoverProvider', () => {
  it('reads the endpoints from the well-known document of the issuer', async () => {
    const { asked, fetchImpl } = serving(DOCUMENT);
    expect(await discoverProvider(`${ISSUER}/`, fetchImpl)).toEqual({
      issuer: ISSUER,
      authorizationEndpoint: DOCUMENT.authorization_endpoint,
      tokenEndpoint: DOCUMENT.token_endpoint,
      userinfoEndpoint: DOCUMENT.userinfo_endpoint,
      codeChallengeMethods: ['plain', 'S256'],
    });
    expect(asked).toEqual([`${ISSUER}/.well-known/openid-configuration`]);
  });

  it('refuses a document that names another issuer', async () => {
    await expect(discoverProvider(ISSUER, serving({ ...DOCUMENT, issuer: 'https://evil.example' }).fetchImpl)).rejects.toThrow(/announces issuer/);
  });

  it('refuses a document without a token endpoint', async () => {
    const { token_endpoint: _omitted, ...partial } = DOCUMENT;
    await expect(discoverProvider(ISSUER, serving(partial).fetchImpl)).rejects.toThrow(/lacks 'token_endpoint'/);
  });

  it('reports an unreachable or failing provider as unavailable', async () => {
    await expect(discoverProvider(ISSUER, serving({}, 503).fetchImpl)).rejects.toBeInstanceOf(IdentityProviderUnavailableError);
    const refused = (async () => {
      throw new TypeError('fetch failed');
    }) as unknown as typeof fetch;
    await expect(discoverProvider(ISSUER, refused)).rejects.toThrow(/could not be read .*fetch failed/);
  });
});
