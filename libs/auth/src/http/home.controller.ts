import { Controller, Get, Header } from '@nestjs/common';
import { CurrentUser, type AuthenticatedUser } from '@app/shared';
import { homePage } from './auth.pages.js';

/** `/` until the web app is served there: who is signed in, and a way out. Signed-out browsers are redirected to the login page. */
@Controller()
export class HomeController {
  @Get()
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('cache-control', 'no-store')
  home(@CurrentUser() user: AuthenticatedUser): string {
    return homePage(user);
  }
}
