import { withIsoDates } from './database.js';

/** A server's connections ask for ISO dates, beside the startup options its URL gives. */
describe('withIsoDates', () => {
  it('adds the ISO DateStyle to a URL without startup options, leaving the rest as it was', () => {
    const url = new URL(withIsoDates('postgres://trader:p%40ss%2Fword@db.example:5433/ledger?sslmode=require'));
    expect(url.searchParams.get('options')).toBe('-c DateStyle=ISO');
    expect(url.searchParams.get('sslmode')).toBe('require');
    expect([url.username, url.password, url.host, url.pathname]).toEqual(['trader', 'p%40ss%2Fword', 'db.example:5433', '/ledger']);
  });

  it("keeps the URL's own startup options, the ISO DateStyle after them", () => {
    const url = new URL(withIsoDates('postgres://trader@db.example/ledger?options=-c%20search_path%3Dapp'));
    expect(url.searchParams.get('options')).toBe('-c search_path=app -c DateStyle=ISO');
  });
});
