import { HoldingsChanges } from './holdings-changes.js';
import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '@app/persistence';
import { HoldingsCsvFormatError, parseHoldingsCsv } from '../domain/holdings-csv.js';
import { HoldingsFileError } from '../domain/portfolio.errors.js';
import { Holdings } from './holdings.port.js';

export interface HoldingsImportResult {
  readonly imported: number;
  readonly updated: number;
  /** `Row N: reason`, in file order. */
  readonly errors: string[];
}

/**
 * Imports a holdings CSV: new symbols become holdings, existing ones are updated (their shares replaced,
 * and cost, type, date and notes where the row gives them). Valid rows land together in one transaction;
 * bad rows are reported and skipped.
 */
@Injectable()
export class HoldingsImportService {
  constructor(
    private readonly holdings: Holdings,
    private readonly unitOfWork: UnitOfWork,
    private readonly changes: HoldingsChanges = new HoldingsChanges(),
  ) {}

  async import(userId: number, text: string): Promise<HoldingsImportResult> {
    let parsed;
    try {
      parsed = parseHoldingsCsv(text);
    } catch (error) {
      if (error instanceof HoldingsCsvFormatError) throw new HoldingsFileError(error.message);
      throw error;
    }
    const errors = parsed.errors.map((message) => ({ line: lineOf(message), message }));
    let imported = 0;
    let updated = 0;

    await this.unitOfWork.run(async () => {
      const existing = new Map((await this.holdings.findBySymbols(userId, parsed.rows.map((row) => row.symbol))).map((h) => [h.symbol, h]));
      for (const row of parsed.rows) {
        const holding = existing.get(row.symbol);
        if (holding !== undefined) {
          await this.holdings.update(userId, holding.id, {
            shares: row.shares,
            ...(row.averageCost !== undefined && { averageCost: row.averageCost }),
            ...(row.holdingType !== undefined && { holdingType: row.holdingType }),
            ...(row.purchaseDate !== undefined && { purchaseDate: row.purchaseDate }),
            ...(row.notes !== undefined && { notes: row.notes }),
          });
          updated += 1;
        } else if (row.averageCost === undefined) {
          errors.push({ line: row.line, message: `Row ${row.line}: average_cost or cost_basis is required for a new holding` });
        } else {
          await this.holdings.create(userId, {
            symbol: row.symbol,
            holdingType: row.holdingType ?? 'stock',
            shares: row.shares,
            averageCost: row.averageCost,
            notes: row.notes ?? '',
            purchaseDate: row.purchaseDate ?? null,
          });
          imported += 1;
        }
      }
    });

    if (imported + updated > 0) this.changes.changed(userId);
    errors.sort((a, b) => a.line - b.line);
    return { imported, updated, errors: errors.map((e) => e.message) };
  }
}

function lineOf(message: string): number {
  return Number(/^Row (\d+):/.exec(message)?.[1] ?? 0);
}
