// The auth context's public surface: sign-in (OpenID Connect), server-side sessions, the allow-list
// and the user profile. Other contexts import only this file (`@app/auth`).
export { AuthModule } from './auth.module.js';
export { configureAuthHttp } from './http/configure-auth-http.js';
export { AUTH_ENTITIES } from './infrastructure/persistence/auth.orm-entities.js';
export { BrokerageAccounts } from './application/brokerage-accounts.port.js';
export type { BrokerageAccount } from './domain/user.js';
export { parseBrokerageAccountNumber } from './domain/brokerage-account-number.js';
export { DEMO_USER_EMAIL } from './domain/allow-list.js';
export { SESSION_COOKIE } from './http/session-cookie.js';
export { IdentityProviderUnavailableError, SignInRejectedError, SignInStateError } from './domain/auth.errors.js';
export { signInHint } from './http/sign-in-hint.js';
export { authSchemas } from './http/auth.openapi.js';
