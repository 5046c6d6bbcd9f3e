import type { IsoDate } from '@app/shared/domain';

// NYSE session times, New York wall-clock time. Every boundary belongs to the period it starts:
// 09:30:00 is `open`, 16:00:00 is `after-hours`, 20:00:00 is `closed`.

export const NEW_YORK_ZONE = 'America/New_York';

export const PRE_MARKET_OPEN_TIME = '04:00:00';
export const REGULAR_OPEN_TIME = '09:30:00';
export const REGULAR_CLOSE_TIME = '16:00:00';
export const EARLY_CLOSE_TIME = '13:00:00';
export const AFTER_HOURS_CLOSE_TIME = '20:00:00';

export type MarketStatus = 'pre-market' | 'open' | 'after-hours' | 'closed';

/** The regular session's opening and closing bell as `HH:MM:SS`, New York time. */
export interface SessionHours {
  readonly open: string;
  readonly close: string;
  readonly isEarlyClose: boolean;
}

/** A trading day's regular session, with its bells as instants (for schedulers such as the EOD snapshot). */
export interface TradingSession extends SessionHours {
  readonly date: IsoDate;
  readonly opensAt: Date;
  readonly closesAt: Date;
}

/** Seconds since midnight of an `HH:MM:SS` time. */
export function secondsOfDay(time: string): number {
  const [hours, minutes, seconds] = time.split(':').map(Number);
  return hours * 3600 + minutes * 60 + seconds;
}
