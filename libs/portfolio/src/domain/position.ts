import { Decimal, percentage, productInCents, type IsoDate } from '@app/shared/domain';
import type { HoldingValuation } from './holding.js';
import type { Quote } from './quote.js';

export type PositionSide = 'long' | 'short';

/** A lot an import left open (the trades context's `open_lots`), as the portfolio reads it. */
export interface ImportedLot {
  readonly accountNumber: string;
  readonly symbol: string;
  readonly side: PositionSide;
  readonly openDate: IsoDate;
  /** Shares still open, after splits; positive on both sides. */
  readonly shares: Decimal;
  /** What they cost, fees included (long), or what their short sale brought in (short). */
  readonly cost: Decimal;
  /** The opening execution's price per share, split-adjusted. */
  readonly price: Decimal | null;
  /** `fifo`: which lots remain is FIFO's estimate; `broker`: the broker's lot details (or no sale) decide it. */
  readonly source: 'broker' | 'fifo';
}

/**
 * What the imports say is held in one symbol on one side. A short is a negative position: its shares and
 * its cost basis (the proceeds received) are negative, so for both sides
 * `unrealized = market value − cost basis` and `average cost = cost basis ÷ shares`.
 */
export interface Position {
  readonly symbol: string;
  readonly side: PositionSide;
  /** Signed: negative for a short. */
  readonly shares: Decimal;
  /** Signed: negative for a short (the proceeds of its sale). */
  readonly costBasis: Decimal;
  readonly lots: number;
  readonly firstOpened: IsoDate;
  readonly lastOpened: IsoDate;
  /** `fifo` when any of its lots is FIFO's estimate. */
  readonly source: 'broker' | 'fifo';
}

/** One position per symbol and side, symbols in alphabetical order (long before short). */
export function positionsFromLots(lots: readonly ImportedLot[]): Position[] {
  const bySymbol = new Map<string, { symbol: string; side: PositionSide; shares: Decimal; cost: Decimal; lots: number; first: IsoDate; last: IsoDate; fifo: boolean }>();
  for (const lot of lots) {
    const key = `${lot.symbol}\u0000${lot.side}`;
    const known = bySymbol.get(key);
    if (known === undefined) {
      bySymbol.set(key, { symbol: lot.symbol, side: lot.side, shares: lot.shares, cost: lot.cost, lots: 1, first: lot.openDate, last: lot.openDate, fifo: lot.source === 'fifo' });
    } else {
      known.shares = known.shares.add(lot.shares);
      known.cost = known.cost.add(lot.cost);
      known.lots += 1;
      if (lot.openDate < known.first) known.first = lot.openDate;
      if (lot.openDate > known.last) known.last = lot.openDate;
      known.fifo ||= lot.source === 'fifo';
    }
  }
  return [...bySymbol.values()]
    .sort((a, b) => (a.symbol === b.symbol ? (a.side === 'long' ? -1 : 1) : a.symbol < b.symbol ? -1 : 1))
    .map((p) => {
      const sign = p.side === 'short' ? -1 : 1;
      return {
        symbol: p.symbol,
        side: p.side,
        shares: sign < 0 ? p.shares.neg() : p.shares,
        costBasis: sign < 0 ? p.cost.neg() : p.cost,
        lots: p.lots,
        firstOpened: p.first,
        lastOpened: p.last,
        source: p.fifo ? 'fifo' : 'broker',
      };
    });
}

/** A position's money figures at a price: the holding's (cents, exact) plus the day's change. */
export interface PositionValuation extends HoldingValuation {
  /** `shares × (price − previous close)`, to the cent; null without a price or a change. */
  readonly dayChange: Decimal | null;
  /** The quote's percent change of the day. */
  readonly dayChangePercentage: Decimal | null;
}

/**
 * Values a position at a quote: market value `shares × price` rounded once to the cent (negative for a
 * short), unrealized P&L `market value − cost basis`, its percentage of the cost basis' size.
 */
export function valuePosition(position: Position, quote: Quote | null): PositionValuation {
  const totalCost = position.costBasis.round(2);
  if (quote === null) return { totalCost, currentValue: null, gainLoss: null, returnPercentage: null, dayChange: null, dayChangePercentage: null };
  const currentValue = productInCents(position.shares, quote.currentPrice);
  const gainLoss = currentValue.sub(totalCost);
  return {
    totalCost,
    currentValue,
    gainLoss,
    returnPercentage: percentage(gainLoss, totalCost.abs()),
    dayChange: quote.change === null ? null : productInCents(position.shares, quote.change),
    dayChangePercentage: quote.percentChange,
  };
}

/** Average cost per share, four decimals: cost basis ÷ shares (positive on both sides). */
export function averageCostOf(position: Pick<Position, 'shares' | 'costBasis'>): Decimal {
  return position.shares.isZero() ? Decimal.ZERO : position.costBasis.div(position.shares).round(4);
}

/**
 * Each value's weight in percent of the whole, two decimals: `|value| ÷ Σ |value|` over the values
 * known (a short weighs by its size, as exposure); null for an unknown value.
 */
export function weightsOf(values: readonly (Decimal | null)[]): (Decimal | null)[] {
  const gross = Decimal.sum(values.filter((v): v is Decimal => v !== null).map((v) => v.abs()));
  return values.map((value) => (value === null ? null : percentage(value.abs(), gross)));
}
