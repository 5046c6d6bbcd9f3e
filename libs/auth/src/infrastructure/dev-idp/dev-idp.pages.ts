import { escapeHtml, htmlPage } from '../html-page.js';

export interface LoginFormOptions {
  action: string;
  email?: string;
  error?: string;
  /** Shown as the address to use when the allow-list is the built-in default. */
  demoEmail?: string;
}

/** The built-in provider's only screen: which e-mail address to sign in as. */
export function loginFormPage(options: LoginFormOptions): string {
  const value = options.email ?? options.demoEmail ?? '';
  const hint = options.demoEmail
    ? `<p>No allow-list is configured, so the demo address <code>${escapeHtml(options.demoEmail)}</code> is the one that gets in.</p>`
    : '<p>Only addresses listed in <code>AUTHORIZED_USERS</code> get in.</p>';
  return htmlPage(
    'Development sign-in',
    `<h1>Development identity provider</h1>
<p class="note"><strong>For development only.</strong> This sign-in page is served by the service itself because no
<code>OIDC_ISSUER</code> is configured. It asks for no password: whoever can reach it can sign in as any allowed
address. Production refuses to run it.</p>
${options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : ''}
<form method="post" action="${escapeHtml(options.action)}">
  <label for="email">E-mail address to sign in as</label>
  <input id="email" name="email" type="email" required autofocus autocomplete="email" value="${escapeHtml(value)}">
  ${hint}
  <button type="submit">Sign in</button>
</form>`,
  );
}

export function expiredInteractionPage(): string {
  return htmlPage(
    'Sign-in expired',
    `<h1>This sign-in has expired</h1>
<p>The sign-in page was open too long, or was already used.</p>
<p><a class="button" href="/login">Start again</a></p>`,
  );
}
