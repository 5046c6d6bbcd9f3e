import { Injectable, Logger } from '@nestjs/common';
import { Clock, TradingCalendar } from '@app/calendar';
import { eodTradingDateDue } from '../domain/eod-schedule.js';
import { portfolioTotals } from '../domain/portfolio-totals.js';
import { Holdings } from './holdings.port.js';
import { HoldingsService } from './holdings.service.js';
import { ImportedPositions } from './imported-positions.port.js';
import { PositionsService } from './positions.service.js';
import { MarketPrices } from './market-prices.service.js';
import { PortfolioSettings } from './portfolio-settings.js';
import { Snapshots } from './snapshots.port.js';

export interface EndOfDayRun {
  readonly tradingDate: string;
  /** Snapshots this run wrote (another instance may have written the rest). */
  readonly created: number;
}

/**
 * The automatic `EOD` snapshot: after each trading day's close, one per user holding anything (by hand
 * or from an import). Several
 * instances may run it at once: the unique key on (user, trading day) lets exactly one write win.
 */
@Injectable()
export class EndOfDaySnapshots {
  private readonly logger = new Logger('EndOfDaySnapshots');

  constructor(
    private readonly calendar: TradingCalendar,
    private readonly clock: Clock,
    private readonly storedHoldings: Holdings,
    private readonly holdings: HoldingsService,
    private readonly imported: ImportedPositions,
    private readonly positions: PositionsService,
    private readonly snapshots: Snapshots,
    private readonly prices: MarketPrices,
    private readonly settings: PortfolioSettings,
  ) {}

  /**
   * Takes the snapshots that are due now, if any. Each run asks again who holds anything and who has the
   * day's snapshot (three small queries), so a trader whose first holding or import comes after the day's
   * first run still gets that day's snapshot; nothing is remembered in the instance. `stopRequested` (the service shutting down) stops the
   * run before its next user: the day is then not done here, and the next run takes the rest.
   */
  async runDue(stopRequested: () => boolean = () => false): Promise<EndOfDayRun | null> {
    const now = this.clock.now();
    const tradingDate = eodTradingDateDue(now, this.calendar, this.settings.endOfDayGraceMs);
    if (tradingDate === null) return null;

    const owners = new Set([...(await this.storedHoldings.usersWithHoldings()), ...(await this.imported.usersWithLots())]);
    const pending = await this.snapshots.usersWithoutEndOfDay([...owners].sort((a, b) => a - b), tradingDate);
    if (pending.length > 0) await this.refreshClosingPrices(tradingDate, now);

    let created = 0;
    for (const userId of pending) {
      if (stopRequested()) return { tradingDate, created };
      const priced = await this.holdings.listWithCachedPrices(userId);
      const positions = await this.positions.list(userId, { prices: 'cached' });
      const totals = portfolioTotals([...priced.map((p) => p.valuation), ...positions.positions.map((p) => p.valuation)]);
      const snapshot = await this.snapshots.createEndOfDay({
        userId,
        type: 'EOD',
        takenAt: this.clock.now(),
        tradingDate,
        notes: `End of day ${tradingDate}`,
        ...totals,
      });
      if (snapshot !== null) created += 1;
    }
    if (created > 0) this.logger.log(`end-of-day snapshots for ${tradingDate}: ${created}`);
    return { tradingDate, created };
  }

  /** Prices fetched after the close are closing prices; older ones are asked again (in the background lane). */
  private async refreshClosingPrices(tradingDate: string, now: Date): Promise<void> {
    const session = this.calendar.sessionOn(tradingDate);
    if (session === null || !this.prices.isConfigured) return;
    const sinceClose = Math.max(0, now.getTime() - session.closesAt.getTime());
    const symbols = new Set([...(await this.storedHoldings.allSymbols()), ...(await this.imported.allSymbols())]);
    const outcomes = await this.prices.refresh([...symbols].sort(), { maxAgeMs: sinceClose, urgency: 'background' });
    const failed = outcomes.filter((o) => o.status === 'failed');
    if (failed.length > 0) this.logger.warn(`end-of-day prices: ${failed.length} symbols kept their last known price`);
  }
}
