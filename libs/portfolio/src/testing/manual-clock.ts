import { Clock } from '@app/calendar';

/** A clock that moves only when told (instants must carry a zone). */
export class ManualClock extends Clock {
  private current: number;

  constructor(instant: string) {
    super();
    this.current = parse(instant);
  }

  now(): Date {
    return new Date(this.current);
  }

  set(instant: string): void {
    this.current = parse(instant);
  }

  advance(ms: number): void {
    this.current += ms;
  }
}

function parse(instant: string): number {
  if (!/(Z|[+-]\d{2}:?\d{2})$/.test(instant)) throw new Error(`ManualClock needs an instant with a zone, got '${instant}'`);
  return Date.parse(instant);
}
