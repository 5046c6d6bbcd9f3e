import { Controller, Get, Header, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiFailures, Public } from '@app/shared';
import { AuthSettings } from '../application/auth-settings.js';
import type { CallbackQuery } from '../application/identity-provider.port.js';
import { SessionService } from '../application/session.service.js';
import { SignInService } from '../application/sign-in.service.js';
import { OidcClientSettings } from '../infrastructure/oidc/oidc-client-settings.js';
import { loginPage } from './auth.pages.js';
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
    const page = loginPage({
      builtInProvider: this.settings.builtInProvider,
      demoEmail: this.settings.builtInProvider && allowList.length === 1 ? allowList[0] : undefined,
      providerHost: this.settings.builtInProvider ? undefined : new URL(this.client.issuer).host,
    });
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
  @ApiFailures(400, 403, 502)
  async callback(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query() query: CallbackQuery): Promise<void> {
    const cookie = new SessionCookie(request);
    const { token } = await this.signIn.complete(query, cookie.signInSlot, cookie.token);
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
    await reply.header('cache-control', 'no-store').redirect(LOGIN_PAGE, 302);
  }
}
