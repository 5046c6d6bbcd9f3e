import { DateTime } from 'luxon';
import { addDays, isWeekend, makeIsoDate, type IsoDate } from '@app/shared/domain';
import { assertMonth, assertSupportedYear, civilDay, isoDateOf, pad2 } from './iso-date.js';
import {
  AFTER_HOURS_CLOSE_TIME,
  EARLY_CLOSE_TIME,
  NEW_YORK_ZONE,
  PRE_MARKET_OPEN_TIME,
  REGULAR_CLOSE_TIME,
  REGULAR_OPEN_TIME,
  secondsOfDay,
  type MarketStatus,
  type SessionHours,
  type TradingSession,
} from './market-session.js';
import { nyseEarlyCloses, nyseHolidays, type CalendarEntry } from './nyse-holidays.js';

/** The contract's "Trading calendar metrics" (field names are the wire names). */
export interface TradingCalendarMetrics {
  /** New York local time, `YYYY-MM-DDTHH:mm:ss.SSSSSS`, no zone suffix. */
  current_time: string;
  market_status: MarketStatus;
  market_open_time: string;
  market_close_time: string;
  is_trading_day: boolean;
  next_trading_day: IsoDate;
  trading_days_this_month: number;
  trading_days_this_year: number;
}

interface YearCalendar {
  readonly entries: readonly CalendarEntry[];
  readonly holidays: ReadonlySet<IsoDate>;
  readonly earlyCloses: ReadonlySet<IsoDate>;
  /** Trading days per month, index 0 = January. */
  readonly tradingDaysByMonth: readonly number[];
}

const REGULAR_HOURS: SessionHours = { open: REGULAR_OPEN_TIME, close: REGULAR_CLOSE_TIME, isEarlyClose: false };
const EARLY_CLOSE_HOURS: SessionHours = { open: REGULAR_OPEN_TIME, close: EARLY_CLOSE_TIME, isEarlyClose: true };

/**
 * The NYSE trading calendar in America/New_York. Dates in and out are `YYYY-MM-DD` days on the New York
 * calendar; instants are `Date`s read in New York time, so answers do not depend on the server's TZ.
 * Stateless apart from a per-year cache of the rules' results; `now` is always passed in (see `Clock`).
 */
export class TradingCalendar {
  private readonly years = new Map<number, YearCalendar>();

  /**
   * This calendar, having answered for `now` once: the first New York time it reads loads the zone's
   * rules (30 ms), and the first question about a year works the year out. Done as the service starts,
   * neither is paid by the first request, or by the end-of-day check's first tick in the middle of an
   * import (a 30–40 ms stall of every request, docs/imports.md "Turns of the event loop").
   */
  readyFor(now: Date): this {
    this.metrics(now);
    this.sessionOn(this.dateAt(now));
    return this;
  }

  /** The year's holidays and early closes, with names, sorted by date. */
  holidaysOf(year: number): CalendarEntry[] {
    return this.yearCalendar(year).entries.map((entry) => ({ ...entry }));
  }

  isTradingDay(date: IsoDate): boolean {
    const day = civilDay(date);
    return day.weekday <= 5 && !this.yearCalendar(day.year).holidays.has(date);
  }

  isEarlyClose(date: IsoDate): boolean {
    return this.yearCalendar(civilDay(date).year).earlyCloses.has(date);
  }

  /**
   * The day's opening and closing bell. A non-trading day (weekend, holiday) answers the regular hours
   * 09:30:00–16:00:00: the times the market keeps when it opens, while `isTradingDay` says it won't.
   */
  sessionHoursOn(date: IsoDate): SessionHours {
    return this.isEarlyClose(date) ? EARLY_CLOSE_HOURS : REGULAR_HOURS;
  }

  /** The day's regular session with its bells as instants, or null when the market does not open that day. */
  sessionOn(date: IsoDate): TradingSession | null {
    if (!this.isTradingDay(date)) return null;
    const hours = this.sessionHoursOn(date);
    return {
      date,
      ...hours,
      opensAt: newYorkInstant(date, hours.open),
      closesAt: newYorkInstant(date, hours.close),
    };
  }

  /** The New York calendar date of an instant ("today" on the exchange). */
  dateAt(instant: Date): IsoDate {
    return isoDateOf(inNewYork(instant));
  }

  marketStatusAt(instant: Date): MarketStatus {
    const local = inNewYork(instant);
    const date = isoDateOf(local);
    if (!this.isTradingDay(date)) return 'closed';
    const second = local.hour * 3600 + local.minute * 60 + local.second;
    if (second < secondsOfDay(PRE_MARKET_OPEN_TIME)) return 'closed';
    if (second < secondsOfDay(REGULAR_OPEN_TIME)) return 'pre-market';
    if (second < secondsOfDay(this.sessionHoursOn(date).close)) return 'open';
    if (second < secondsOfDay(AFTER_HOURS_CLOSE_TIME)) return 'after-hours';
    return 'closed';
  }

  /** The first trading day strictly after `date`. */
  nextTradingDay(date: IsoDate): IsoDate {
    let day = civilDay(date);
    do {
      day = day.plus({ days: 1 });
    } while (!this.isTradingDay(isoDateOf(day)));
    return isoDateOf(day);
  }

  /** Trading days (early closes included) in a whole month; `month` is 1–12. */
  tradingDaysInMonth(year: number, month: number): number {
    assertMonth(month);
    return this.yearCalendar(year).tradingDaysByMonth[month - 1];
  }

  /** Trading days (early closes included) in a whole year. */
  tradingDaysInYear(year: number): number {
    return this.yearCalendar(year).tradingDaysByMonth.reduce((sum, days) => sum + days, 0);
  }

  /** The contract's metrics at `now`: today is the New York date of `now`; counts cover the whole month/year. */
  metrics(now: Date): TradingCalendarMetrics {
    const local = inNewYork(now);
    const today = isoDateOf(local);
    const hours = this.sessionHoursOn(today);
    return {
      current_time: formatLocalTimestamp(local),
      market_status: this.marketStatusAt(now),
      market_open_time: hours.open,
      market_close_time: hours.close,
      is_trading_day: this.isTradingDay(today),
      next_trading_day: this.nextTradingDay(today),
      trading_days_this_month: this.tradingDaysInMonth(local.year, local.month),
      trading_days_this_year: this.tradingDaysInYear(local.year),
    };
  }

  private yearCalendar(year: number): YearCalendar {
    const cached = this.years.get(year);
    if (cached) return cached;
    assertSupportedYear(year);

    const holidays = nyseHolidays(year);
    const earlyCloses = nyseEarlyCloses(year, holidays);
    const holidayDates = new Set(holidays.map((h) => h.date));
    // The shared date arithmetic, not luxon: a year of luxon values took 15–20 ms on cold code (`readyFor`).
    const tradingDaysByMonth = Array.from({ length: 12 }, () => 0);
    const end = makeIsoDate(year + 1, 1, 1);
    for (let date = makeIsoDate(year, 1, 1); date < end; date = addDays(date, 1)) {
      if (!isWeekend(date) && !holidayDates.has(date)) tradingDaysByMonth[Number(date.slice(5, 7)) - 1] += 1;
    }

    const calendar: YearCalendar = {
      entries: Object.freeze(
        [...holidays, ...earlyCloses].sort((a, b) => (a.date < b.date ? -1 : 1)).map((e) => Object.freeze(e)),
      ),
      holidays: holidayDates,
      earlyCloses: new Set(earlyCloses.map((e) => e.date)),
      tradingDaysByMonth: Object.freeze(tradingDaysByMonth),
    };
    this.years.set(year, calendar);
    return calendar;
  }
}

function inNewYork(instant: Date): DateTime {
  const local = DateTime.fromJSDate(instant, { zone: NEW_YORK_ZONE });
  if (!local.isValid) throw new RangeError(`Invalid instant: ${String(instant)}`);
  assertSupportedYear(local.year);
  return local;
}

function newYorkInstant(date: IsoDate, time: string): Date {
  return DateTime.fromISO(`${date}T${time}`, { zone: NEW_YORK_ZONE }).toJSDate();
}

/** `YYYY-MM-DDTHH:mm:ss.SSSSSS`: a JS instant has milliseconds, so the last three digits are zeros. */
function formatLocalTimestamp(local: DateTime): string {
  const time = `${pad2(local.hour)}:${pad2(local.minute)}:${pad2(local.second)}`;
  return `${isoDateOf(local)}T${time}.${String(local.millisecond).padStart(3, '0')}000`;
}
