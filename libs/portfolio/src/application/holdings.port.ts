import type { Holding, HoldingChanges, HoldingDraft } from '../domain/holding.js';

/** Holdings, always within one user's portfolio: another user's ids are simply not found. */
export abstract class Holdings {
  abstract findByUser(userId: number): Promise<Holding[]>;

  abstract findOne(userId: number, id: number): Promise<Holding | null>;

  abstract findBySymbols(userId: number, symbols: readonly string[]): Promise<Holding[]>;

  /** Throws `DuplicateHoldingError` when the user holds the symbol already. */
  abstract create(userId: number, draft: HoldingDraft): Promise<Holding>;

  /** Null when there is no such holding for this user. */
  abstract update(userId: number, id: number, changes: HoldingChanges): Promise<Holding | null>;

  /** False when there is no such holding for this user. */
  abstract delete(userId: number, id: number): Promise<boolean>;

  /** Distinct symbols over every user's holdings (for the end-of-day job). */
  abstract allSymbols(): Promise<string[]>;

  /** Users who hold anything. */
  abstract usersWithHoldings(): Promise<number[]>;
}
