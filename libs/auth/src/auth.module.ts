import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { CalendarModule } from '@app/calendar';
import { Database, DatabaseNotifications } from '@app/persistence';
import { AppConfig } from '@app/shared';
import { AuthSettings } from './application/auth-settings.js';
import { BrokerageAccounts } from './application/brokerage-accounts.port.js';
import { IdentityProvider } from './application/identity-provider.port.js';
import { ProfileService } from './application/profile.service.js';
import { SessionService } from './application/session.service.js';
import { Sessions } from './application/sessions.port.js';
import { SignInAttempts } from './application/sign-in-attempts.port.js';
import { SignInStates } from './application/sign-in-states.service.js';
import { SignInService } from './application/sign-in.service.js';
import { Users } from './application/users.port.js';
import { AllowList } from './domain/allow-list.js';
import { SessionPolicy } from './domain/session-policy.js';
import { BUILT_IN_PROVIDER } from './infrastructure/dev-idp/built-in-provider.token.js';
import { DevelopmentIdentityProvider } from './infrastructure/dev-idp/development-identity-provider.js';
import { OidcClientSettings } from './infrastructure/oidc/oidc-client-settings.js';
import { PassportIdentityProvider } from './infrastructure/oidc/passport-identity-provider.adapter.js';
import { TypeOrmBrokerageAccounts } from './infrastructure/persistence/typeorm-brokerage-accounts.repository.js';
import { NotifiedSessions } from './infrastructure/persistence/notified-sessions.js';
import { ProcessCachedSessions } from './infrastructure/persistence/process-cached-sessions.js';
import { TypeOrmSessions } from './infrastructure/persistence/typeorm-sessions.repository.js';
import { TypeOrmSignInAttempts } from './infrastructure/persistence/typeorm-sign-in-attempts.repository.js';
import { TypeOrmUsers } from './infrastructure/persistence/typeorm-users.repository.js';
import { AccountsController } from './http/accounts.controller.js';
import { ProfileController } from './http/profile.controller.js';
import { SessionGuard } from './http/session.guard.js';
import { SignInController } from './http/sign-in.controller.js';

/**
 * Sign-in (OpenID Connect), server-side sessions, the allow-list and the profile. Registers the
 * global guard every other context relies on; `configureAuthHttp` sets up the cookie, the
 * cross-site check and the built-in provider on the HTTP server.
 */
@Module({
  imports: [CalendarModule],
  controllers: [SignInController, ProfileController, AccountsController],
  providers: [
    {
      provide: AuthSettings,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => {
        const builtIn = DevelopmentIdentityProvider.isWanted(config);
        return new AuthSettings(AllowList.fromSettings(config.authorizedUsers, builtIn), new SessionPolicy(config.sessionIdleMinutes), builtIn);
      },
    },
    {
      provide: BUILT_IN_PROVIDER,
      inject: [AppConfig, AuthSettings, Database],
      useFactory: (config: AppConfig, settings: AuthSettings, database: Database) =>
        // Constructed here, started (key file, provider set-up) by configureAuthHttp before the server listens.
        settings.builtInProvider ? new DevelopmentIdentityProvider(config, settings.allowList, database) : null,
    },
    {
      provide: OidcClientSettings,
      inject: [AppConfig, BUILT_IN_PROVIDER],
      useFactory: async (config: AppConfig, builtIn: DevelopmentIdentityProvider | null) => {
        // The built-in provider's client secret comes from its signing key, loaded when it starts.
        await builtIn?.start();
        const callbackUrl = `${config.publicUrl}/auth/callback`;
        if (config.oidc !== undefined) {
          const { issuer, clientId, clientSecret } = config.oidc;
          return new OidcClientSettings(issuer, clientId, clientSecret, callbackUrl, config.oidcScopes, undefined);
        }
        if (builtIn === null) throw new Error('No identity provider: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET');
        // prompt=login: every sign-in asks which address to use, even while the provider remembers the last one.
        return new OidcClientSettings(builtIn.issuer, builtIn.clientId, builtIn.clientSecret, callbackUrl, config.oidcScopes, 'login');
      },
    },
    { provide: Users, useClass: TypeOrmUsers },
    TypeOrmSessions,
    {
      // The embedded database belongs to this process alone, so its sessions can be read through a copy.
      // A server may be shared by several instances: the copy there is kept by the database's notifications.
      provide: Sessions,
      inject: [AppConfig, TypeOrmSessions, DatabaseNotifications],
      useFactory: (config: AppConfig, stored: TypeOrmSessions, notifications: DatabaseNotifications) =>
        config.databaseUrl === undefined ? new ProcessCachedSessions(stored) : new NotifiedSessions(stored, notifications),
    },
    { provide: SignInAttempts, useClass: TypeOrmSignInAttempts },
    { provide: BrokerageAccounts, useClass: TypeOrmBrokerageAccounts },
    { provide: IdentityProvider, useClass: PassportIdentityProvider },
    SignInStates,
    SessionService,
    SignInService,
    ProfileService,
    { provide: APP_GUARD, useClass: SessionGuard },
  ],
  exports: [BrokerageAccounts],
})
export class AuthModule {}
