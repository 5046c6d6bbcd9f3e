import { arrayOf, boolean, integer, isoDate, literal, object, oneOfStrings, string, type SchemaSet } from '@app/shared/openapi';

// The trading calendar's response bodies for the OpenAPI document.

export const calendarSchemas: SchemaSet = {
  TradingCalendarMetrics: object({
    current_time: string({ description: 'New York local time, `YYYY-MM-DDTHH:mm:ss.SSSSSS`, no zone suffix.' }),
    market_status: oneOfStrings(['open', 'closed', 'pre-market', 'after-hours']),
    market_open_time: string(),
    market_close_time: string(),
    is_trading_day: boolean(),
    next_trading_day: isoDate(),
    trading_days_this_month: integer({ minimum: 0 }),
    trading_days_this_year: integer({ minimum: 0 }),
  }),
  TradingCalendarMetricsResponse: object({ success: literal(true), metrics: { $ref: '#/components/schemas/TradingCalendarMetrics' } }),
  HolidaysResponse: object({
    success: literal(true),
    year: integer(),
    holidays: arrayOf(
      object({ date: isoDate(), name: string(), type: oneOfStrings(['holiday', 'early_close']), close_time: string({ description: 'Early closes only.' }) }, [
        'close_time',
      ]),
    ),
  }),
};
