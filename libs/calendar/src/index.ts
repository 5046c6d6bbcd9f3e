// The calendar context's public surface: the only thing other contexts import (`@app/calendar`).
export { CalendarModule } from './calendar.module.js';
export { parseMonthNumber, parseYear } from './domain/iso-date.js';
export { Clock } from './application/clock.port.js';
export { TradingCalendar, type TradingCalendarMetrics } from './domain/trading-calendar.js';
export {
  NEW_YORK_ZONE,
  REGULAR_OPEN_TIME,
  REGULAR_CLOSE_TIME,
  EARLY_CLOSE_TIME,
  PRE_MARKET_OPEN_TIME,
  AFTER_HOURS_CLOSE_TIME,
  type MarketStatus,
  type SessionHours,
  type TradingSession,
} from './domain/market-session.js';
export type { CalendarEntry, MarketHoliday, EarlyClose } from './domain/nyse-holidays.js';
export {
  InvalidDateError,
  InvalidMonthError,
  InvalidYearError,
  MIN_SUPPORTED_YEAR,
  MAX_SUPPORTED_YEAR,
} from './domain/trading-calendar.errors.js';
export { calendarSchemas } from './http/calendar.openapi.js';
