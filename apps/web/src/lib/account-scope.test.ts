import { describe, expect, it } from 'vitest';
import { scopedToAccount } from './account-scope';

describe('scopedToAccount', () => {
  it("adds the chosen account to every report's path, keeping its own query", () => {
    expect(scopedToAccount('/api/months', 'RH-1')).toBe('/api/months?account=RH-1');
    expect(scopedToAccount('/api/month/2024-04', 'RH-1')).toBe('/api/month/2024-04?account=RH-1');
    expect(scopedToAccount('/api/symbols/BRK.B', 'RH-1')).toBe('/api/symbols/BRK.B?account=RH-1');
    expect(scopedToAccount('/api/symbols/summary', 'RH-1')).toBe('/api/symbols/summary?account=RH-1');
    expect(scopedToAccount('/api/trades?limit=50&sort=close_date', 'RH-1')).toBe('/api/trades?limit=50&sort=close_date&account=RH-1');
    expect(scopedToAccount('/api/calendar/export/pdf?date=2024-05-09', 'XXXX 1234')).toBe('/api/calendar/export/pdf?date=2024-05-09&account=XXXX+1234');
    expect(scopedToAccount('/api/trades/export.csv?symbols=NVDA', 'A&B')).toBe('/api/trades/export.csv?symbols=NVDA&account=A%26B');
    // An account already in the address is replaced, not repeated.
    expect(scopedToAccount('/api/statistics?account=OLD&preset=all', 'NEW')).toBe('/api/statistics?account=NEW&preset=all');
  });

  it('leaves every path alone when all accounts are shown', () => {
    expect(scopedToAccount('/api/months', null)).toBe('/api/months');
    expect(scopedToAccount('/api/trades?limit=50', null)).toBe('/api/trades?limit=50');
  });

  it('never narrows what is not a report: notes, tags, the portfolio, the import, the accounts', () => {
    for (const path of ['/api/trades/abc123/note', '/api/trades/tags.csv', '/api/tags', '/api/portfolio', '/api/upload-history', '/api/accounts', '/api/market-status', '/api/symbols/NVDA/extra', '/auth/profile']) {
      expect(scopedToAccount(path, 'RH-1')).toBe(path);
    }
  });
});
