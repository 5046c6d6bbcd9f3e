/** The address the built-in development identity provider admits when no allow-list is configured. */
export const DEMO_USER_EMAIL = 'demo@example.com';

/**
 * The configured e-mail addresses that may use the service (`AUTHORIZED_USERS`), compared trimmed and
 * case-insensitively. Checked at sign-in and again on every request, so removing an address takes
 * effect at once.
 */
export class AllowList {
  private readonly addresses: ReadonlySet<string>;

  constructor(addresses: readonly string[]) {
    this.addresses = new Set(addresses.map(normalizeEmail).filter((address) => address !== ''));
  }

  /**
   * `AUTHORIZED_USERS` as configured; when it is empty and the built-in development provider is in
   * use, the documented demo address, so a fresh checkout signs in with nothing configured.
   */
  static fromSettings(configured: readonly string[], builtInProvider: boolean): AllowList {
    return new AllowList(configured.length === 0 && builtInProvider ? [DEMO_USER_EMAIL] : configured);
  }

  admits(email: string): boolean {
    return this.addresses.has(normalizeEmail(email));
  }

  get isEmpty(): boolean {
    return this.addresses.size === 0;
  }

  /** For the login page's hint; never shown when a real provider is configured. */
  get entries(): string[] {
    return [...this.addresses].sort();
  }
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
