import { describe, expect, it } from 'vitest';
import { WEB_APP_ROUTES } from '../../../api/src/web/web-app.routes';
import { NAVIGATION, ROUTES, sectionOf } from '../routes';
import { matchPath, navigate, updateSearch } from './router';

describe('matchPath', () => {
  it('matches literal segments and captures parameters', () => {
    expect(matchPath('/', '/')).toEqual({});
    expect(matchPath('/symbols', '/symbols')).toEqual({});
    expect(matchPath('/symbols/:symbol', '/symbols/BRK.B')).toEqual({ symbol: 'BRK.B' });
    expect(matchPath('/symbols/:symbol', '/symbols/A%2FB')).toEqual({ symbol: 'A/B' });
    expect(matchPath('/month/:month', '/month/2024-05/')).toEqual({ month: '2024-05' });
  });

  it('does not match other shapes', () => {
    expect(matchPath('/symbols/:symbol', '/symbols')).toBeNull();
    expect(matchPath('/symbols', '/symbols/NVDA')).toBeNull();
    expect(matchPath('/', '/calendar')).toBeNull();
    expect(matchPath('/symbols/:symbol', '/symbols/%E0%A4%A')).toBeNull();
  });
});

describe('the route table', () => {
  it('is the list the service answers with the app (apps/api/src/web/web-app.routes.ts)', () => {
    expect(ROUTES.map((route) => route.pattern)).toEqual([...WEB_APP_ROUTES]);
  });

  it('every navigation entry leads to a route', () => {
    for (const entry of NAVIGATION) expect(ROUTES.some((route) => matchPath(route.pattern, entry.to) !== null)).toBe(true);
  });

  it('highlights the section a page belongs to', () => {
    expect(sectionOf('/')).toBe('/');
    expect(sectionOf('/symbols/NVDA')).toBe('/symbols');
    expect(sectionOf('/month/2024-05')).toBe('/calendar');
    expect(sectionOf('/elsewhere')).toBe('');
  });
});

describe('navigation', () => {
  it('pushes history entries and edits the query', () => {
    navigate('/calendar?month=2024-05');
    expect(window.location.pathname + window.location.search).toBe('/calendar?month=2024-05');
    updateSearch({ date: '2024-05-28' });
    expect(window.location.search).toBe('?month=2024-05&date=2024-05-28');
    updateSearch({ date: null, month: '' }, { replace: true });
    expect(window.location.pathname + window.location.search).toBe('/calendar');
  });
});
