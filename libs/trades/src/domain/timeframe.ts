import { monthOf, weekStart, type IsoDate } from '@app/shared/domain';
import { NO_ACTIVITY, addTotals, sumTotals, type DayTotals, type PeriodTotals } from './period-totals.js';

export interface WeekTotals {
  /** The Monday the week starts on. */
  readonly weekStart: IsoDate;
  readonly totals: PeriodTotals;
}

export interface MonthTotals {
  /** `YYYY-MM`. */
  readonly month: string;
  readonly totals: PeriodTotals;
}

export interface TimeframeTotals {
  readonly summary: PeriodTotals;
  /** Weeks (Monday–Sunday) with a trade or a dividend, newest first. */
  readonly weekly: readonly WeekTotals[];
  /** Months with a trade or a dividend, newest first. */
  readonly monthly: readonly MonthTotals[];
}

function bucket(days: readonly DayTotals[], keyOf: (date: IsoDate) => string): [string, PeriodTotals][] {
  const buckets = new Map<string, PeriodTotals>();
  for (const day of days) {
    const key = keyOf(day.date);
    buckets.set(key, addTotals(buckets.get(key) ?? NO_ACTIVITY, day));
  }
  return [...buckets].sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0));
}

/**
 * A timeframe's totals from its days' totals: the whole, by Monday-based week and by calendar month.
 * A week that straddles two months counts once in the weekly list and in each of its months for the days it has there.
 */
export function summariseTimeframe(days: readonly DayTotals[]): TimeframeTotals {
  return {
    summary: sumTotals(days),
    weekly: bucket(days, weekStart).map(([key, totals]) => ({ weekStart: key, totals })),
    monthly: bucket(days, monthOf).map(([key, totals]) => ({ month: key, totals })),
  };
}

/** Months with a trade or a dividend, newest first. */
export function monthsWithActivity(days: readonly DayTotals[]): MonthTotals[] {
  return bucket(days, monthOf).map(([key, totals]) => ({ month: key, totals }));
}
