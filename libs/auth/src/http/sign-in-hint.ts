import type { AppConfig } from '@app/shared';
import { AllowList } from '../domain/allow-list.js';
import { DevelopmentIdentityProvider } from '../infrastructure/dev-idp/development-identity-provider.js';

/** The start-up line that tells whoever started the service how to sign in. */
export function signInHint(config: AppConfig): string {
  const builtIn = DevelopmentIdentityProvider.isWanted(config);
  const admitted = AllowList.fromSettings(config.authorizedUsers, builtIn).entries;
  const who = admitted.length === 0 ? 'nobody yet: set AUTHORIZED_USERS' : admitted.length <= 3 ? admitted.join(', ') : `${admitted.length} addresses (AUTHORIZED_USERS)`;
  if (builtIn) {
    return `sign in at ${config.publicUrl}/ with the built-in development provider (no password) as ${who}`;
  }
  return `sign-in through ${config.oidc?.issuer ?? 'the configured provider'}; admitted: ${who}`;
}
