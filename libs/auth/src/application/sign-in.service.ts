import { Injectable } from '@nestjs/common';
import { Clock } from '@app/calendar';
import { AddressNotAllowedError } from '../domain/auth.errors.js';
import type { User } from '../domain/user.js';
import { AuthSettings } from './auth-settings.js';
import { IdentityProvider, type BrowserSignInSlot, type CallbackQuery } from './identity-provider.port.js';
import { SessionService } from './session.service.js';
import { Users } from './users.port.js';

export interface CompletedSignIn {
  user: User;
  /** The new session's token: a fresh one at every sign-in, whatever the browser held before. */
  token: string;
}

/** The sign-in flow around the identity provider: allow-list, user record, a fresh session. */
@Injectable()
export class SignInService {
  constructor(
    private readonly provider: IdentityProvider,
    private readonly users: Users,
    private readonly sessions: SessionService,
    private readonly settings: AuthSettings,
    private readonly clock: Clock,
  ) {}

  begin(browser: BrowserSignInSlot): Promise<string> {
    return this.provider.startSignIn(browser);
  }

  /**
   * Completes the sign-in. An address off the allow-list is refused before anything is written: no
   * user row, no session. Any session the browser held before is ended (no session fixation).
   */
  async complete(query: CallbackQuery, browser: BrowserSignInSlot, previousToken: string | undefined): Promise<CompletedSignIn> {
    const identity = await this.provider.completeSignIn(query, browser);
    if (!this.settings.allowList.admits(identity.email)) throw new AddressNotAllowedError(identity.email);
    const user = await this.users.recordSignIn(identity, this.clock.now());
    await this.sessions.close(previousToken);
    const token = await this.sessions.open(user.id);
    return { user, token };
  }
}
