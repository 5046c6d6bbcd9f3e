import { describe, expect, it } from 'vitest';
import type { MarketMetrics } from '../api/types';
import { clockTime, marketDetail } from '../components/MarketStatus';
import { filterSymbols } from './SymbolsPage';
import { recentPeriod } from './DashboardPage';

describe('market status line', () => {
  const metrics: MarketMetrics = {
    current_time: '2025-11-28T12:59:30.123000',
    market_status: 'open',
    market_open_time: '09:30:00',
    market_close_time: '13:00:00',
    is_trading_day: true,
    next_trading_day: '2025-12-01',
    trading_days_this_month: 19,
    trading_days_this_year: 251,
  };
  it('says when the market closes, opens, or next trades', () => {
    expect(clockTime('16:00:00')).toBe('4:00 PM');
    expect(clockTime('09:30:00')).toBe('9:30 AM');
    expect(clockTime('00:05:00')).toBe('12:05 AM');
    expect(marketDetail(metrics)).toBe('Closes at 1:00 PM ET');
    expect(marketDetail({ ...metrics, market_status: 'pre-market' })).toBe('Opens at 9:30 AM ET');
    expect(marketDetail({ ...metrics, market_status: 'closed' })).toBe('Next trading day: Monday, December 1, 2025');
  });
});

describe('symbol search', () => {
  const rows = [
    { symbol: 'NVDA', name: 'NVIDIA CORP' },
    { symbol: 'NVO', name: 'NOVO NORDISK A/S ADR' },
    { symbol: 'PEP', name: 'PEPSICO INC' },
  ];
  it('matches ticker or company, any case', () => {
    expect(filterSymbols(rows, 'nv').map((row) => row.symbol)).toEqual(['NVDA', 'NVO']);
    expect(filterSymbols(rows, 'pepsi').map((row) => row.symbol)).toEqual(['PEP']);
    expect(filterSymbols(rows, '  ')).toHaveLength(3);
  });
});

describe("the dashboard's second card", () => {
  it('is this year to date while this year has activity and an earlier year too', () => {
    expect(recentPeriod('2026-11-25', '2026-10', '2025-03')).toMatchObject({ title: 'Year to date (2026)', range: { start: '2026-01-01', end: '2026-11-25' }, link: '/timeframe?preset=ytd' });
    expect(recentPeriod('2026-11-25', undefined, undefined).title).toBe('Year to date (2026)');
  });

  it('is the latest year with activity when this year has none, not a card of zeros', () => {
    expect(recentPeriod('2026-11-25', '2024-06', '2023-01')).toEqual({
      title: '2024 (your latest year with activity)',
      range: { all: false, start: '2024-01-01', end: '2024-12-31' },
      link: '/timeframe?start=2024-01-01&end=2024-12-31',
    });
  });

  it('is the latest month with activity when one year holds all of it, not "All time" again', () => {
    expect(recentPeriod('2026-11-25', '2024-06', '2024-03')).toEqual({
      title: 'June 2024 (your latest month with activity)',
      range: { all: false, start: '2024-06-01', end: '2024-06-30' },
      link: '/month/2024-06',
    });
    expect(recentPeriod('2026-11-25', '2026-10', '2026-02')).toMatchObject({ title: 'October 2026 (your latest month with activity)', range: { start: '2026-10-01', end: '2026-10-31' } });
    expect(recentPeriod('2026-11-25', '2026-11', '2026-02')).toEqual({
      title: 'This month (November 2026)',
      range: { all: false, start: '2026-11-01', end: '2026-11-25' },
      link: '/month/2026-11',
    });
  });
});
