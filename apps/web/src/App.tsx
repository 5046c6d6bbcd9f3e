import { useEffect, useRef } from 'react';
import { AccountPicker, AccountScopeProvider } from './accounts';
import { PageHeader } from './components/common';
import { Link, matchPath, useLocation } from './lib/router';
import { ProfileProvider, useProfile } from './profile';
import { NAVIGATION, ROUTES, sectionOf } from './routes';

function UserMenu() {
  const { profile } = useProfile();
  return (
    <div className="user">
      {profile && (
        <span className="user-email" title={profile.email}>
          {profile.email}
        </span>
      )}
      {/* POST: a page on another site cannot sign the user out through this form (same-origin check). */}
      <form method="post" action="/logout">
        <button type="submit" className="button-link">
          Sign out
        </button>
      </form>
    </div>
  );
}

function NotFound() {
  return (
    <>
      <PageHeader title="Page not found" />
      <p>
        There is no page at this address. <Link to="/">Go to the dashboard</Link>.
      </p>
    </>
  );
}

function CurrentPage() {
  const { pathname } = useLocation();
  for (const route of ROUTES) {
    const params = matchPath(route.pattern, pathname);
    if (params !== null) {
      const Page = route.page;
      // A new key per path: a page's state starts fresh when its parameters change.
      return <Page key={route.pattern === '/symbols/:symbol' || route.pattern === '/month/:month' ? pathname : route.pattern} params={params} />;
    }
  }
  return <NotFound />;
}

export function App() {
  const { pathname } = useLocation();
  const section = sectionOf(pathname);
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);

  // After a navigation, move focus to the new page's heading, as a full page load would for a screen reader.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    window.scrollTo(0, 0);
    const heading = main.current?.querySelector<HTMLElement>('h1');
    heading?.focus({ preventScroll: true });
  }, [pathname]);

  return (
    <ProfileProvider>
      <AccountScopeProvider>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="topbar">
          <Link to="/" className="brand">
            <svg viewBox="0 0 32 32" width="24" height="24" aria-hidden="true">
              <rect width="32" height="32" rx="6" fill="#1f5fbf" />
              <path d="M6 22l6-7 5 4 9-11" stroke="#fff" strokeWidth="3" fill="none" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
            Trading journal
          </Link>
          <nav aria-label="Main">
            <ul>
              {NAVIGATION.map((entry) => (
                <li key={entry.to}>
                  <Link to={entry.to} aria-current={section === entry.section ? 'page' : undefined}>
                    {entry.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <AccountPicker />
          <UserMenu />
        </header>
        <main id="main" ref={main} tabIndex={-1}>
          <CurrentPage />
        </main>
      </AccountScopeProvider>
    </ProfileProvider>
  );
}
