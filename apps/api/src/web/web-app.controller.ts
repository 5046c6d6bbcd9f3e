import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { WebAppFiles } from './web-app-files.js';
import { WEB_APP_ROUTES } from './web-app.routes.js';

/**
 * The browser app's pages: each answers index.html and the app routes in the browser. Like every page,
 * they are behind the sign-in guard (a signed-out browser is sent to /auth/login). Unknown paths stay
 * 404 JSON; the API keeps /api, /auth, /health, /login, /logout and /dev-idp. The security headers
 * (content security policy, framing, sniffing, referrer) are every answer's (request-guards.ts).
 */
@ApiExcludeController()
@Controller()
export class WebAppController {
  constructor(private readonly files: WebAppFiles) {}

  @Get(WEB_APP_ROUTES.map((route) => route.slice(1)))
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('cache-control', 'no-store')
  page(): string {
    return this.files.indexHtml();
  }
}
