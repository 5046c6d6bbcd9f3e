import { isPageRequest } from './session.guard.js';

describe('isPageRequest', () => {
  it.each([
    ['GET', '/', true],
    ['HEAD', '/portfolio', true],
    ['GET', '/calendar?month=2025-03', true],
    ['GET', '/api/months', false],
    ['GET', '/api', false],
    ['GET', '/auth/profile', false],
    ['GET', '/auth/profile?x=1', false],
    ['POST', '/', false],
    ['PUT', '/portfolio', false],
  ])('%s %s → %p', (method, url, expected) => {
    expect(isPageRequest({ method, url })).toBe(expected);
  });
});
