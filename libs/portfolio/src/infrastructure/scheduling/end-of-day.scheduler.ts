import { setTimeout as delay } from 'node:timers/promises';
import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { EndOfDaySnapshots } from '../../application/end-of-day-snapshots.service.js';

/** How long a shutdown waits for a run under way to stop (it stops before its next user), before the database closes anyway. */
const SHUTDOWN_WAIT_MS = 5_000;

/**
 * Checks each minute whether an end-of-day snapshot is due; a run never overlaps the previous one. On
 * shutdown no run starts, and the one under way stops before its next user, so the database is not
 * closed under its statements (its failed query and warning were logged by an ordinary stop); the
 * users it did not reach get theirs from the next run, here or on another instance.
 */
@Injectable()
export class EndOfDayScheduler implements BeforeApplicationShutdown {
  private readonly logger = new Logger('EndOfDayScheduler');
  private running: Promise<void> | undefined;
  private stopping = false;

  constructor(private readonly endOfDay: EndOfDaySnapshots) {}

  @Cron('30 * * * * *', { name: 'portfolio-end-of-day-snapshots' })
  async tick(): Promise<void> {
    if (this.running !== undefined || this.stopping) return;
    this.running = this.run();
    try {
      await this.running;
    } finally {
      this.running = undefined;
    }
  }

  /** No run starts from now on; the one under way is given SHUTDOWN_WAIT_MS to stop. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    if (this.running !== undefined) await Promise.race([this.running, delay(SHUTDOWN_WAIT_MS, undefined, { ref: false })]);
  }

  private async run(): Promise<void> {
    try {
      await this.endOfDay.runDue(() => this.stopping);
    } catch (error) {
      this.logger.warn(`end-of-day snapshots not taken yet: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
