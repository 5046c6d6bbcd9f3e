import { Decimal } from '@app/shared/domain';
import type { HoldingType } from './holding-type.js';
import { percentage, productInCents } from '@app/shared/domain';

/** A position a user holds: one per symbol per user. Shares and costs are exact. */
export interface Holding {
  readonly id: number;
  readonly userId: number;
  readonly symbol: string;
  readonly holdingType: HoldingType;
  readonly shares: Decimal;
  /** Cost per share. */
  readonly averageCost: Decimal;
  readonly notes: string;
  readonly purchaseDate: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What a new holding or an import row brings; the repository gives it an id and timestamps. */
export interface HoldingDraft {
  readonly symbol: string;
  readonly holdingType: HoldingType;
  readonly shares: Decimal;
  readonly averageCost: Decimal;
  readonly notes: string;
  readonly purchaseDate: string | null;
}

export interface HoldingChanges {
  readonly holdingType?: HoldingType;
  readonly shares?: Decimal;
  readonly averageCost?: Decimal;
  readonly notes?: string;
  readonly purchaseDate?: string | null;
}

/**
 * The money figures of one holding. Amounts are rounded once to the cent (half away from zero) from the
 * exact products; the gain and the return are derived from those cent amounts, so the fields a user
 * sees always add up: `gain_loss = current_value − total_cost`, `return = gain_loss ÷ total_cost × 100`.
 * Without a known price, the value, gain and return are unknown (null).
 */
export interface HoldingValuation {
  readonly totalCost: Decimal;
  readonly currentValue: Decimal | null;
  readonly gainLoss: Decimal | null;
  readonly returnPercentage: Decimal | null;
}

export function valueHolding(shares: Decimal, averageCost: Decimal, price: Decimal | null): HoldingValuation {
  const totalCost = productInCents(shares, averageCost);
  if (price === null) return { totalCost, currentValue: null, gainLoss: null, returnPercentage: null };
  const currentValue = productInCents(shares, price);
  const gainLoss = currentValue.sub(totalCost);
  return { totalCost, currentValue, gainLoss, returnPercentage: percentage(gainLoss, totalCost) };
}
