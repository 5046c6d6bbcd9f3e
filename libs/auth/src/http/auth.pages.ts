import { escapeHtml, htmlPage } from '../infrastructure/html-page.js';

export interface LoginPageOptions {
  /** The built-in development provider is in use. */
  builtInProvider: boolean;
  /** The demo address, when the built-in provider admits only it. */
  demoEmail: string | undefined;
  /** Where an external provider lives, for the page's wording. */
  providerHost: string | undefined;
  /** The browser has just signed out. */
  signedOut: boolean;
}

/** GET /auth/login: what happens next, and the button that starts it. */
export function loginPage(options: LoginPageOptions): string {
  const explanation = options.builtInProvider
    ? `<div class="note">
<p><strong>Development sign-in.</strong> No identity provider is configured (<code>OIDC_ISSUER</code> is unset), so the
service uses its built-in development provider. After <em>Sign in</em> it asks for an e-mail address, with no password:
type ${
        options.demoEmail
          ? `the demo address <code>${escapeHtml(options.demoEmail)}</code> (no <code>AUTHORIZED_USERS</code> is configured)`
          : 'an address listed in <code>AUTHORIZED_USERS</code>'
      }.</p>
<p>Production needs a real provider: set <code>OIDC_ISSUER</code>, <code>OIDC_CLIENT_ID</code> and <code>OIDC_CLIENT_SECRET</code>.</p>
</div>`
    : `<p>You will be sent to ${options.providerHost ? `<strong>${escapeHtml(options.providerHost)}</strong>` : 'your identity provider'} to sign in, then back here.
Only e-mail addresses on this service's allow-list are admitted.</p>`;
  return htmlPage(
    'Sign in · Trading journal',
    `<h1>Trading journal</h1>
${options.signedOut ? '<p class="note" role="status">You are signed out.</p>\n' : ''}<p>Sign in to see your trades, dividends and portfolio.</p>
${explanation}
<p><a class="button" href="/login">Sign in</a></p>`,
  );
}

/** The callback's answer to a browser whose provider signed in an address off the allow-list (403). */
export function addressNotAllowedPage(email: string): string {
  return htmlPage(
    'Not allowed · Trading journal',
    `<h1>Trading journal</h1>
<p class="error" role="alert">The address <strong>${escapeHtml(email)}</strong> is not allowed to use this service.</p>
<p>Ask whoever runs it to add the address to <code>AUTHORIZED_USERS</code>, or sign in with another address.</p>
<p><a class="button" href="/login">Sign in with another address</a></p>`,
  );
}
