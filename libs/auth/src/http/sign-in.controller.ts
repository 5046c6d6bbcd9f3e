import { Controller, Get, Header, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '@app/shared';
import { ApiFailures, ERROR_SCHEMA, ref } from '@app/shared/openapi';
import { AuthSettings } from '../application/auth-settings.js';
import type { CallbackQuery } from '../application/identity-provider.port.js';
import { SessionService } from '../application/session.service.js';
import { SignInService } from '../application/sign-in.service.js';
import { AddressNotAllowedError } from '../domain/auth.errors.js';
import { OidcClientSettings } from '../infrastructure/oidc/oidc-client-settings.js';
import { addressNotAllowedPage, loginPage } from './auth.pages.js';
import { LOGIN_PAGE } from './session.guard.js';
import { SessionCookie } from './session-cookie.js';

/** Sign-in and sign-out (../shared/spec/interface.md "Sign-in and session"; ../shared/spec/decisions.md §2). */
@Public()
@ApiTags('Sign-in and session')
@Controller()
export class SignInController {
  constructor(
    private readonly signIn: SignInService,
    private readonly sessions: SessionService,
    private readonly settings: AuthSettings,
    private readonly client: OidcClientSettings,
  ) {}

  /** The login page; a signed-in user goes straight to `/`. */
  @Get('auth/login')
  @ApiOperation({ summary: 'The login page (public)' })
  @ApiProduces('text/html')
  @ApiResponse({ status: 200, description: 'The page: a link to `/login` and, with the built-in provider, what to type.', content: { 'text/html': { schema: { type: 'string' } } } })
  @ApiResponse({ status: 302, description: 'Already signed in: to `/`.', headers: { Location: { schema: { type: 'string' } } } })
  @Header('cache-control', 'no-store')
  async loginPage(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if ((await this.sessions.peek(new SessionCookie(request).token)) !== null) {
      await reply.redirect('/', 302);
      return;
    }
    const allowList = this.settings.allowList.entries;
    const signedOut = justSignedOut(request);
    const page = loginPage({
      builtInProvider: this.settings.builtInProvider,
      demoEmail: this.settings.builtInProvider && allowList.length === 1 ? allowList[0] : undefined,
      providerHost: this.settings.builtInProvider ? undefined : new URL(this.client.issuer).host,
      signedOut,
    });
    if (signedOut) void reply.header('set-cookie', SIGNED_OUT_CLEAR);
    await reply.type('text/html; charset=utf-8').send(page);
  }

  /** 302 to the provider's authorization endpoint, with `state`, `nonce` and a PKCE challenge. */
  @Get('login')
  @ApiOperation({ summary: "Start sign-in: to the identity provider's authorization page (public)" })
  @ApiResponse({ status: 302, description: "The provider's authorization address, with `state`, `nonce` and a PKCE challenge.", headers: { Location: { schema: { type: 'string' } } } })
  @ApiFailures(502)
  async login(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const location = await this.signIn.begin(new SessionCookie(request).signInSlot);
    await reply.header('cache-control', 'no-store').redirect(location, 302);
  }

  /** The provider's redirect back: a new session and 302 to `/`; 400 on a bad state or code, 403 off the allow-list. */
  @Get('auth/callback')
  @ApiOperation({ summary: "The provider's redirect back: creates the session (public)" })
  @ApiQuery({ name: 'code', required: true, schema: { type: 'string' } })
  @ApiQuery({ name: 'state', required: true, schema: { type: 'string' } })
  @ApiResponse({ status: 302, description: 'Signed in: the `session` cookie is set; to `/`.', headers: { Location: { schema: { type: 'string' } } } })
  @ApiResponse({
    status: 403,
    description: 'The address is not on the allow-list: a page naming it for a browser (`Accept: text/html`), the error body otherwise.',
    content: { 'application/json': { schema: ref(ERROR_SCHEMA) }, 'text/html': { schema: { type: 'string' } } },
  })
  @ApiFailures(400, 502)
  async callback(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query() query: CallbackQuery): Promise<void> {
    const cookie = new SessionCookie(request);
    let token: string;
    try {
      ({ token } = await this.signIn.complete(query, cookie.signInSlot, cookie.token));
    } catch (error) {
      // A browser gets a page that names the refused address; API clients the contract's JSON.
      if (error instanceof AddressNotAllowedError && acceptsHtml(request)) {
        await reply.status(403).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(addressNotAllowedPage(error.email));
        return;
      }
      throw error;
    }
    cookie.signIn(token);
    await reply.header('cache-control', 'no-store').redirect('/', 302);
  }

  @Get('logout')
  @ApiOperation({ summary: 'Sign out (public)' })
  @ApiResponse({ status: 302, description: 'The session is ended and the cookie expired; to the login page.', headers: { Location: { schema: { type: 'string' } } } })
  logoutByLink(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.logout(request, reply);
  }

  @Post('logout')
  @ApiOperation({ summary: 'Sign out from a form (public)' })
  @ApiResponse({ status: 302, description: 'The session is ended and the cookie expired; to the login page.', headers: { Location: { schema: { type: 'string' } } } })
  logoutByForm(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.logout(request, reply);
  }

  /** Deletes the server-side session, expires the cookie, and shows the login page. */
  private async logout(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const cookie = new SessionCookie(request);
    await this.sessions.close(cookie.token);
    cookie.clear();
    // The contract's 302 to the login page stays as it is; a short-lived cookie tells that page to say so.
    await reply.header('cache-control', 'no-store').header('set-cookie', SIGNED_OUT_SET).redirect(LOGIN_PAGE, 302);
  }
}

/** Set by a sign-out for the login page that follows (a minute at most), which then says "You are signed out". */
const SIGNED_OUT_SET = `signed_out=1; Path=${LOGIN_PAGE}; Max-Age=60; HttpOnly; SameSite=Lax`;
const SIGNED_OUT_CLEAR = `signed_out=; Path=${LOGIN_PAGE}; Max-Age=0; HttpOnly; SameSite=Lax`;

function justSignedOut(request: FastifyRequest): boolean {
  return /(?:^|;\s*)signed_out=1(?:;|$)/.test(request.headers.cookie ?? '');
}

/** A browser navigating (its Accept names HTML), not an API client. */
function acceptsHtml(request: FastifyRequest): boolean {
  return /\btext\/html\b/.test(request.headers.accept ?? '');
}
