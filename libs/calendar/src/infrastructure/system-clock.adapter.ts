import { Injectable, Optional } from '@nestjs/common';
import { AppConfig } from '@app/shared';
import { Clock } from '../application/clock.port.js';

/** The system's time; in test runs, shifted by TEST_CLOCK_OFFSET_MINUTES (see AppConfig). */
@Injectable()
export class SystemClock extends Clock {
  private readonly offsetMs: number;

  constructor(@Optional() config?: AppConfig) {
    super();
    this.offsetMs = (config?.clockOffsetMinutes ?? 0) * 60_000;
  }

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}
