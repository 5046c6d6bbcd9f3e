import { Injectable } from '@nestjs/common';
import { Decimal, type IsoDate } from '@app/shared/domain';
import type { HoldingType } from '../domain/holding-type.js';
import { portfolioTotals, type PortfolioTotals } from '../domain/portfolio-totals.js';
import { weightsOf } from '../domain/position.js';
import { HoldingsService, type PricedHolding } from './holdings.service.js';
import { ImportedPositions } from './imported-positions.port.js';
import { PositionsService, type PositionsReport } from './positions.service.js';
import { Snapshots } from './snapshots.port.js';

export interface PortfolioSummary {
  /** Manual holdings and imported positions together. */
  readonly total: PortfolioTotals;
  readonly manual: PortfolioTotals;
  readonly imported: PortfolioTotals;
  /** Prices being fetched: a later read has more. */
  readonly pendingPrices: number;
  /** Symbols held both by hand and by an import (each counted once per source). */
  readonly heldTwice: string[];
}

export interface AllocationSlice<K> {
  readonly key: K;
  readonly value: Decimal;
  /** Percent of the gross value of everything priced, two decimals. */
  readonly weight: Decimal;
}

export interface Allocation {
  readonly bySymbol: AllocationSlice<string>[];
  readonly byType: AllocationSlice<HoldingType>[];
  readonly totalValue: Decimal;
  /** Holdings and positions without any price: in neither list. */
  readonly unpriced: number;
}

export interface ValueHistoryDay {
  readonly date: IsoDate;
  /** From that day's end-of-day snapshot; null on a day with activity but no snapshot. */
  readonly value: Decimal | null;
  readonly costBasis: Decimal | null;
  readonly unrealizedProfitLoss: Decimal | null;
  /** Trades closed and dividends paid that day. */
  readonly realizedProfitLoss: Decimal;
  readonly dividends: Decimal;
  /** Since the start of the range, that day included. */
  readonly cumulativeRealizedProfitLoss: Decimal;
  readonly cumulativeDividends: Decimal;
}

/**
 * The whole portfolio, manual holdings and imported positions together (docs/api.md "Positions"):
 * totals, allocation by symbol and by security type, and value over time from the end-of-day snapshots.
 */
@Injectable()
export class PortfolioOverview {
  constructor(
    private readonly holdings: HoldingsService,
    private readonly positions: PositionsService,
    private readonly imported: ImportedPositions,
    private readonly snapshots: Snapshots,
  ) {}

  async summary(userId: number): Promise<PortfolioSummary> {
    const { holdings, positions } = await this.both(userId);
    const manual = holdings.map((h) => h.valuation);
    const fromImports = positions.positions.map((p) => p.valuation);
    return {
      total: portfolioTotals([...manual, ...fromImports]),
      manual: portfolioTotals(manual),
      imported: portfolioTotals(fromImports),
      pendingPrices: positions.pending,
      heldTwice: [...new Set(positions.positions.filter((p) => p.alsoManual).map((p) => p.position.symbol))],
    };
  }

  /**
   * Market value by symbol (manual and imported together; a short counts negative) and by security
   * type. An imported position takes the type of the user's manual holding of the symbol, if any, else
   * `stock` (the broker files do not say).
   */
  async allocation(userId: number): Promise<Allocation> {
    const { holdings, positions } = await this.both(userId);
    const typeOf = new Map<string, HoldingType>(holdings.map((h) => [h.holding.symbol, h.holding.holdingType]));
    const entries = [
      ...holdings.map((h) => ({ symbol: h.holding.symbol, type: h.holding.holdingType, value: h.valuation.currentValue })),
      ...positions.positions.map((p) => ({ symbol: p.position.symbol, type: typeOf.get(p.position.symbol) ?? ('stock' as const), value: p.valuation.currentValue })),
    ];
    const priced = entries.filter((e): e is typeof e & { value: Decimal } => e.value !== null);
    return {
      bySymbol: slices(priced, (e) => e.symbol),
      byType: slices(priced, (e) => e.type),
      totalValue: Decimal.sum(priced.map((e) => e.value)),
      unpriced: entries.length - priced.length,
    };
  }

  /** One row per day with an end-of-day snapshot or realized activity in the range, oldest first. */
  async valueHistory(userId: number, from: IsoDate | null, to: IsoDate | null): Promise<ValueHistoryDay[]> {
    const [snapshots, realized] = await Promise.all([
      this.snapshots.findByUser(userId, { type: 'EOD' }),
      this.imported.realizedDays(userId, from, to),
    ]);
    const byDate = new Map<IsoDate, { value: Decimal; cost: Decimal }>();
    for (const snapshot of snapshots) {
      const date = snapshot.tradingDate;
      if (date === null || (from !== null && date < from) || (to !== null && date > to)) continue;
      byDate.set(date, { value: snapshot.totalValue, cost: snapshot.totalCost });
    }
    const activity = new Map(realized.map((day) => [day.date, day]));
    const dates = [...new Set([...byDate.keys(), ...activity.keys()])].sort();
    let realizedSoFar = Decimal.ZERO;
    let dividendsSoFar = Decimal.ZERO;
    return dates.map((date) => {
      const snapshot = byDate.get(date);
      const day = activity.get(date);
      realizedSoFar = realizedSoFar.add(day?.realizedProfitLoss ?? Decimal.ZERO);
      dividendsSoFar = dividendsSoFar.add(day?.dividends ?? Decimal.ZERO);
      return {
        date,
        value: snapshot?.value ?? null,
        costBasis: snapshot?.cost ?? null,
        unrealizedProfitLoss: snapshot === undefined ? null : snapshot.value.sub(snapshot.cost),
        realizedProfitLoss: day?.realizedProfitLoss ?? Decimal.ZERO,
        dividends: day?.dividends ?? Decimal.ZERO,
        cumulativeRealizedProfitLoss: realizedSoFar,
        cumulativeDividends: dividendsSoFar,
      };
    });
  }

  private async both(userId: number): Promise<{ holdings: PricedHolding[]; positions: PositionsReport }> {
    const [holdings, positions] = await Promise.all([this.holdings.list(userId), this.positions.list(userId)]);
    return { holdings, positions };
  }
}

/** Sums values by key, largest gross value first, with each key's weight of the gross total. */
function slices<E extends { value: Decimal }, K>(entries: readonly E[], keyOf: (entry: E) => K): AllocationSlice<K>[] {
  const sums = new Map<K, Decimal>();
  for (const entry of entries) sums.set(keyOf(entry), (sums.get(keyOf(entry)) ?? Decimal.ZERO).add(entry.value));
  const keys = [...sums.keys()];
  const weights = weightsOf(keys.map((key) => sums.get(key) ?? null));
  return keys
    .map((key, index) => ({ key, value: sums.get(key) as Decimal, weight: weights[index] as Decimal }))
    .sort((a, b) => b.value.abs().cmp(a.value.abs()) || String(a.key).localeCompare(String(b.key)));
}
