import { Clock } from '../application/clock.port.js';

const HAS_ZONE = /(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * A clock stopped at a given instant; `set` and `advance` move it. Strings must carry a zone
 * (`2025-03-10T13:30:00Z`, `…-04:00`): a zoneless string would be read in the server's TZ.
 */
export class FixedClock extends Clock {
  private current: Date;

  constructor(instant: Date | string) {
    super();
    this.current = toInstant(instant);
  }

  now(): Date {
    return new Date(this.current);
  }

  set(instant: Date | string): void {
    this.current = toInstant(instant);
  }

  advance(milliseconds: number): void {
    this.current = new Date(this.current.getTime() + milliseconds);
  }
}

function toInstant(instant: Date | string): Date {
  if (typeof instant === 'string' && !HAS_ZONE.test(instant)) {
    throw new Error(`FixedClock needs an instant with a zone, got '${instant}'`);
  }
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) throw new Error(`FixedClock got an invalid instant: '${String(instant)}'`);
  return date;
}
