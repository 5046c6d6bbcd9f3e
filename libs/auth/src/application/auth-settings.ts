import { AllowList } from '../domain/allow-list.js';
import { SessionPolicy } from '../domain/session-policy.js';

const SIGN_IN_WINDOW_MS = 10 * 60_000;

/** The auth rules taken from the configuration once, at start-up. */
export class AuthSettings {
  constructor(
    readonly allowList: AllowList,
    readonly sessions: SessionPolicy,
    /** Whether the built-in development identity provider is the one in use. */
    readonly builtInProvider: boolean,
    /** How long a sign-in started at /login may take to come back to the callback. */
    readonly signInWindowMs = SIGN_IN_WINDOW_MS,
  ) {}
}
