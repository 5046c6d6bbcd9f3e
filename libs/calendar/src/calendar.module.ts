import { Module } from '@nestjs/common';
import { Clock } from './application/clock.port.js';
import { TradingCalendar } from './domain/trading-calendar.js';
import { TradingCalendarController } from './http/trading-calendar.controller.js';
import { SystemClock } from './infrastructure/system-clock.adapter.js';

@Module({
  controllers: [TradingCalendarController],
  providers: [
    { provide: Clock, useClass: SystemClock },
    // The domain class carries no Nest decorators, so it is built by a factory rather than by reflection,
    // and ready for today (`readyFor`) while the service starts.
    { provide: TradingCalendar, useFactory: (clock: Clock) => new TradingCalendar().readyFor(clock.now()), inject: [Clock] },
  ],
  exports: [Clock, TradingCalendar],
})
export class CalendarModule {}
