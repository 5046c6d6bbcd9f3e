import { lastDayOfMonth, mondayOf, monthOf } from './dates';

export type PresetId = 'week' | 'month' | 'ytd' | 'last-year' | 'all';

export interface Preset {
  id: PresetId;
  label: string;
}

export const PRESETS: readonly Preset[] = [
  { id: 'week', label: 'This week' },
  { id: 'month', label: 'This month' },
  { id: 'ytd', label: 'Year to date' },
  { id: 'last-year', label: 'Last year' },
  { id: 'all', label: 'All time' },
];

/** What `/api/timeframe-data` is asked for: a date range, or all time. */
export type Range = { all: true } | { all: false; start: string; end: string };

/** The range a preset stands for, seen from `today` (YYYY-MM-DD). Ranges end today, not in the future. */
export function presetRange(id: PresetId, today: string): Range {
  const year = Number(today.slice(0, 4));
  switch (id) {
    case 'week':
      return { all: false, start: mondayOf(today), end: today };
    case 'month':
      return { all: false, start: `${monthOf(today)}-01`, end: today };
    case 'ytd':
      return { all: false, start: `${year}-01-01`, end: today };
    case 'last-year':
      return { all: false, start: `${year - 1}-01-01`, end: `${year - 1}-12-31` };
    case 'all':
      return { all: true };
  }
}

/** The query string of `/api/timeframe-data` for a range and a symbol filter. */
export function timeframeQuery(range: Range, symbols: readonly string[]): string {
  const params = new URLSearchParams();
  if (range.all) params.set('all', 'true');
  else {
    params.set('start', range.start);
    params.set('end', range.end);
  }
  if (symbols.length > 0) params.set('symbols', symbols.join(','));
  return params.toString();
}

/** The whole month holding `day`, for links from a month to its timeframe. */
export function monthRange(month: string): Range {
  return { all: false, start: `${month}-01`, end: lastDayOfMonth(month) };
}
