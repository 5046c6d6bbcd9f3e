import type { Decimal, IsoDate } from '@app/shared/domain';
import type { ImportedLot } from '../domain/position.js';

/** Realized trading P&L and dividends of one day (for the value history). */
export interface RealizedDay {
  readonly date: IsoDate;
  readonly realizedProfitLoss: Decimal;
  readonly dividends: Decimal;
}

/**
 * What the imports hold, read from the trades context's tables: the open lots the last import left,
 * and the realized side of each day. Always within one user's data.
 */
export abstract class ImportedPositions {
  /** The user's open lots, by symbol then opening date; only the account numbered `account` when given. */
  abstract lots(userId: number, filter?: { account?: string; symbol?: string }): Promise<ImportedLot[]>;

  /** The distinct symbols of the user's open lots. */
  abstract symbols(userId: number): Promise<string[]>;

  /** Users with open lots, and all their symbols (the end-of-day job). */
  abstract usersWithLots(): Promise<number[]>;
  abstract allSymbols(): Promise<string[]>;

  /** Per day from `from` to `to` (inclusive) on which trades closed or dividends were paid. */
  abstract realizedDays(userId: number, from: IsoDate | null, to: IsoDate | null): Promise<RealizedDay[]>;
}
