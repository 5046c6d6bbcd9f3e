import { Module } from '@nestjs/common';
import { Clock } from './application/clock.port.js';
import { TradingCalendar } from './domain/trading-calendar.js';
import { TradingCalendarController } from './http/trading-calendar.controller.js';
import { SystemClock } from './infrastructure/system-clock.adapter.js';

@Module({
  controllers: [TradingCalendarController],
  providers: [
    { provide: Clock, useClass: SystemClock },
    // The domain class carries no Nest decorators, so it is built by a factory rather than by reflection.
    { provide: TradingCalendar, useFactory: () => new TradingCalendar() },
  ],
  exports: [Clock, TradingCalendar],
})
export class CalendarModule {}
