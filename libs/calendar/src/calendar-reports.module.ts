import { Module } from '@nestjs/common';
import { TradesModule } from '@app/trades';
import { CalendarModule } from './calendar.module.js';
import { CalendarReportsController } from './http/calendar-reports.controller.js';

/**
 * `/api/calendar-data` and `/api/day-details`: the calendar views of the trading reports, on the
 * trades context's read model. A module of its own so that the many importers of CalendarModule
 * (for the Clock) do not pull in the trades context.
 */
@Module({
  imports: [CalendarModule, TradesModule],
  controllers: [CalendarReportsController],
})
export class CalendarReportsModule {}
