import { IdentityProvider, type BrowserSignInSlot, type CallbackQuery } from '../application/identity-provider.port.js';
import { SignInStateError } from '../domain/auth.errors.js';
import type { VerifiedIdentity } from '../domain/verified-identity.js';

/** A provider that signs in whoever the test says, once the callback carries the expected code. */
export class FakeIdentityProvider extends IdentityProvider {
  identity: VerifiedIdentity = { email: 'demo@example.com', name: 'Demo' };

  async startSignIn(browser: BrowserSignInSlot): Promise<string> {
    browser.write('state-1');
    return 'https://idp.example/authorize?state=state-1';
  }

  async completeSignIn(query: CallbackQuery, browser: BrowserSignInSlot): Promise<VerifiedIdentity> {
    const expected = browser.read();
    browser.write(undefined);
    if (query.state === undefined || query.state !== expected) throw new SignInStateError();
    return { ...this.identity };
  }
}

/** The browser's side of a sign-in: what its cookie would hold. */
export class MemorySignInSlot implements BrowserSignInSlot {
  value: string | undefined;

  read(): string | undefined {
    return this.value;
  }

  write(handle: string | undefined): void {
    this.value = handle;
  }
}
