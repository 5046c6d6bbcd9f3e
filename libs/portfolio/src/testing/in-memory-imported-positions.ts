import type { IsoDate } from '@app/shared/domain';
import { ImportedPositions, type RealizedDay } from '../application/imported-positions.port.js';
import type { ImportedLot } from '../domain/position.js';

/** Open lots and realized days held in memory, per user, for unit tests. */
export class InMemoryImportedPositions extends ImportedPositions {
  private readonly lotsByUser = new Map<number, ImportedLot[]>();
  private readonly daysByUser = new Map<number, RealizedDay[]>();

  setLots(userId: number, lots: ImportedLot[]): this {
    this.lotsByUser.set(userId, lots);
    return this;
  }

  setRealizedDays(userId: number, days: RealizedDay[]): this {
    this.daysByUser.set(userId, days);
    return this;
  }

  async lots(userId: number, filter: { account?: string; symbol?: string } = {}): Promise<ImportedLot[]> {
    return (this.lotsByUser.get(userId) ?? []).filter(
      (lot) => (filter.account === undefined || lot.accountNumber === filter.account) && (filter.symbol === undefined || lot.symbol === filter.symbol),
    );
  }

  async symbols(userId: number): Promise<string[]> {
    return [...new Set((this.lotsByUser.get(userId) ?? []).map((lot) => lot.symbol))].sort();
  }

  async usersWithLots(): Promise<number[]> {
    return [...this.lotsByUser].filter(([, lots]) => lots.length > 0).map(([userId]) => userId).sort((a, b) => a - b);
  }

  async allSymbols(): Promise<string[]> {
    return [...new Set([...this.lotsByUser.values()].flat().map((lot) => lot.symbol))].sort();
  }

  async realizedDays(userId: number, from: IsoDate | null, to: IsoDate | null): Promise<RealizedDay[]> {
    return (this.daysByUser.get(userId) ?? []).filter((day) => (from === null || day.date >= from) && (to === null || day.date <= to));
  }
}
