import type { User } from '../domain/user.js';
import type { VerifiedIdentity } from '../domain/verified-identity.js';

/** The people who have signed in. */
export abstract class Users {
  /** Creates the user on first sign-in (or updates the name), and records `at` as the last login. */
  abstract recordSignIn(identity: VerifiedIdentity, at: Date): Promise<User>;
  abstract findById(id: number): Promise<User | null>;
}
