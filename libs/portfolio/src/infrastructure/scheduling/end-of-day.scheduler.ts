import { Injectable, Logger } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { EndOfDaySnapshots } from '../../application/end-of-day-snapshots.service.js';

/** Checks each minute whether an end-of-day snapshot is due; a run never overlaps the previous one. */
@Injectable()
export class EndOfDayScheduler {
  private readonly logger = new Logger('EndOfDayScheduler');
  private running = false;

  constructor(private readonly endOfDay: EndOfDaySnapshots) {}

  @Cron('30 * * * * *', { name: 'portfolio-end-of-day-snapshots' })
  async tick(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.endOfDay.runDue();
    } catch (error) {
      this.logger.warn(`end-of-day snapshots not taken yet: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.running = false;
    }
  }
}
