import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthenticationRequiredError, IS_PUBLIC, type AuthenticatedUser } from '@app/shared';
import { SessionService } from '../application/session.service.js';
import { SessionCookie } from './session-cookie.js';

export const LOGIN_PAGE = '/auth/login';

/**
 * The guard every route passes (registered globally): routes marked `@Public()` are open; all others
 * need a live server-side session of a user still on the allow-list, and get `request.user`.
 * Without a session, API paths (`/api/*`, `/auth/profile`, and anything but GET/HEAD) answer 401
 * with `redirect_to_login`; page paths redirect to the login page. Off the allow-list: 403.
 */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    if (this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;

    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & { user?: AuthenticatedUser }>();
    const cookie = new SessionCookie(request);
    try {
      const session = await this.sessions.resolve(cookie.token);
      if (session.renewed) cookie.renew();
      request.user = session.user;
      return true;
    } catch (error) {
      if (!(error instanceof AuthenticationRequiredError)) throw error;
      cookie.forgetToken();
      if (!isPageRequest(request)) throw error;
      // Returning false after the redirect is sent: Nest's ForbiddenException then finds the reply sent.
      await http.getResponse<FastifyReply>().redirect(LOGIN_PAGE, 302);
      return false;
    }
  }
}

/** A browser navigating to a page, as opposed to a script calling the API. */
export function isPageRequest(request: { method: string; url: string }): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?')[0];
  return !path.startsWith('/api/') && path !== '/api' && !path.startsWith('/auth/profile');
}
