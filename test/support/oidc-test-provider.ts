import { generateKeyPairSync, createPrivateKey } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

export interface TestProviderClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

export interface TestProvider {
  issuer: string;
  /** Every token response body the provider sent (access and ID tokens), for leak checks. */
  tokenResponses: Record<string, unknown>[];
  stop(): Promise<void>;
}

/**
 * A standalone OpenID Provider on loopback (oidc-provider, as an external provider such as
 * Keycloak would be): authorization-code flow, PKCE required, e-mail claims only from UserInfo
 * (the ID token carries none, as OIDC Core §5.4 has it), and a login page with an `email` field.
 * Addresses that start with `unverified` come back with `email_verified: false`.
 */
export async function startTestProvider(port: number, clients: TestProviderClient[]): Promise<TestProvider> {
  const issuer = `http://127.0.0.1:${port}`;
  // PEM first, then JWK (exporting a freshly generated key straight to JWK can hang on Node 20).
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const jwk = { ...createPrivateKey(privateKey).export({ format: 'jwk' }), use: 'sig', alg: 'RS256' };
  const configuration: Configuration = {
    clients: clients.map((client) => ({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      redirect_uris: client.redirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    jwks: { keys: [jwk as never] },
    cookies: { keys: ['test-provider-cookie-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name', 'family_name'] },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, email: sub, email_verified: !sub.startsWith('unverified'), given_name: 'Test', family_name: sub.split('@')[0] }),
    }),
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const clientId = ctx.oidc.client?.clientId;
      const accountId = ctx.oidc.session?.accountId;
      if (clientId === undefined || accountId === undefined) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId });
      grant.addOIDCScope(String(ctx.oidc.params?.scope ?? 'openid'));
      await grant.save();
      return grant;
    },
  };
  // Quiet its notice about the in-memory adapter: state in memory is what a test provider wants.
  const warn = console.warn;
  console.warn = () => undefined;
  let provider: Provider;
  try {
    provider = new Provider(issuer, configuration);
  } finally {
    console.warn = warn;
  }
  const tokenResponses: Record<string, unknown>[] = [];
  provider.on('grant.success', (ctx: KoaContextWithOIDC) => tokenResponses.push({ ...(ctx.body as Record<string, unknown>) }));

  // The login screen: GET shows a form, POST signs in as the address typed.
  provider.use(async (ctx, next) => {
    const match = /^\/interaction\/([^/]+)$/.exec(ctx.path);
    if (match === null) return next();
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    if (ctx.method === 'GET') {
      ctx.type = 'html';
      ctx.body = `<!doctype html><title>Test provider</title><form method="post" action="/interaction/${details.uid}"><input name="email" type="email"><button>Sign in</button></form>`;
      return undefined;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) chunks.push(chunk);
    const email = new URLSearchParams(Buffer.concat(chunks).toString()).get('email') ?? '';
    ctx.respond = false;
    await provider.interactionFinished(ctx.req, ctx.res, { login: { accountId: email.toLowerCase() } }, { mergeWithLastSubmission: false });
    return undefined;
  });

  const server: Server = createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    issuer,
    tokenResponses,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
