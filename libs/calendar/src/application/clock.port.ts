/** The current instant. A port so that time-dependent code (market status, EOD jobs) can be tested. */
export abstract class Clock {
  abstract now(): Date;
}
