import { Holdings } from '../application/holdings.port.js';
import type { Holding, HoldingChanges, HoldingDraft } from '../domain/holding.js';
import { DuplicateHoldingError } from '../domain/portfolio.errors.js';

export class InMemoryHoldings extends Holdings {
  private readonly rows = new Map<number, Holding>();
  private nextId = 1;

  async findByUser(userId: number): Promise<Holding[]> {
    return [...this.rows.values()].filter((h) => h.userId === userId).sort((a, b) => a.symbol.localeCompare(b.symbol));
  }

  async findOne(userId: number, id: number): Promise<Holding | null> {
    const holding = this.rows.get(id);
    return holding?.userId === userId ? holding : null;
  }

  async findBySymbols(userId: number, symbols: readonly string[]): Promise<Holding[]> {
    return (await this.findByUser(userId)).filter((h) => symbols.includes(h.symbol));
  }

  async create(userId: number, draft: HoldingDraft): Promise<Holding> {
    if ((await this.findBySymbols(userId, [draft.symbol])).length > 0) throw new DuplicateHoldingError(draft.symbol);
    const now = new Date();
    const holding: Holding = { id: this.nextId++, userId, ...draft, createdAt: now, updatedAt: now };
    this.rows.set(holding.id, holding);
    return holding;
  }

  async update(userId: number, id: number, changes: HoldingChanges): Promise<Holding | null> {
    const holding = await this.findOne(userId, id);
    if (holding === null) return null;
    const updated: Holding = { ...holding, ...changes, updatedAt: new Date() };
    this.rows.set(id, updated);
    return updated;
  }

  async delete(userId: number, id: number): Promise<boolean> {
    return (await this.findOne(userId, id)) !== null && this.rows.delete(id);
  }

  async allSymbols(): Promise<string[]> {
    return [...new Set([...this.rows.values()].map((h) => h.symbol))].sort();
  }

  async usersWithHoldings(): Promise<number[]> {
    return [...new Set([...this.rows.values()].map((h) => h.userId))].sort((a, b) => a - b);
  }
}
