/** What the end-of-day rule needs from the trading calendar (`TradingCalendar` of `@app/calendar` fits). */
export interface SessionCalendar {
  /** The exchange's calendar date (`YYYY-MM-DD`) of an instant. */
  dateAt(instant: Date): string;
  /** The day's regular session, or null when the market does not open that day. */
  sessionOn(date: string): { readonly opensAt: Date; readonly closesAt: Date } | null;
}

const DAY_MS = 86_400_000;
const MAX_DAYS_WITHOUT_SESSION = 14;

/**
 * The trading day whose end-of-day snapshot is due at `now`, or null while the market trades.
 *
 * - From `grace` after today's close: today.
 * - Before today's open, or on a day the market stays shut: the last trading day before today. Prices
 *   still stand at that day's close, so a service that was down at the close catches up (once: the
 *   snapshot is unique per user and trading day).
 * - Between today's open and `grace` after its close: none (prices are moving).
 */
export function eodTradingDateDue(now: Date, calendar: SessionCalendar, graceMs: number): string | null {
  const today = calendar.dateAt(now);
  const session = calendar.sessionOn(today);
  if (session !== null) {
    if (now.getTime() >= session.closesAt.getTime() + graceMs) return today;
    if (now.getTime() >= session.opensAt.getTime()) return null;
  }
  return previousTradingDate(today, calendar);
}

function previousTradingDate(date: string, calendar: SessionCalendar): string | null {
  let day = Date.parse(`${date}T00:00:00Z`);
  for (let i = 0; i < MAX_DAYS_WITHOUT_SESSION; i += 1) {
    day -= DAY_MS;
    const candidate = new Date(day).toISOString().slice(0, 10);
    if (calendar.sessionOn(candidate) !== null) return candidate;
  }
  return null;
}
