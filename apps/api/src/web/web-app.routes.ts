/**
 * The browser app's pages (apps/web/src/routes.tsx has the same list; a web test checks they agree).
 * The service answers each with the app's index.html, behind the sign-in like any page.
 */
export const WEB_APP_ROUTES = ['/', '/calendar', '/month/:month', '/symbols', '/symbols/:symbol', '/timeframe', '/statistics', '/trades', '/tags', '/import', '/portfolio'] as const;
