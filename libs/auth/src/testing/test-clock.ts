import { Clock } from '@app/calendar';

/** A clock the test moves by hand. */
export class TestClock extends Clock {
  private current: Date;

  constructor(start = '2026-03-02T09:00:00Z') {
    super();
    this.current = new Date(start);
  }

  now(): Date {
    return new Date(this.current);
  }

  advanceMinutes(minutes: number): void {
    this.current = new Date(this.current.getTime() + minutes * 60_000);
  }

  advanceSeconds(seconds: number): void {
    this.current = new Date(this.current.getTime() + seconds * 1000);
  }
}
