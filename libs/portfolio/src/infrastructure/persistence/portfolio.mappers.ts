import { Decimal } from '@app/shared/domain';
import type { Holding } from '../../domain/holding.js';
import { isHoldingType } from '../../domain/holding-type.js';
import type { SymbolPrice } from '../../domain/quote.js';
import { isSnapshotType, type Snapshot } from '../../domain/snapshot.js';
import type { HoldingOrmEntity } from './holding.orm-entity.js';
import type { MarketQuoteOrmEntity } from './market-quote.orm-entity.js';
import type { PortfolioSnapshotOrmEntity } from './portfolio-snapshot.orm-entity.js';

export function toHolding(row: HoldingOrmEntity): Holding {
  if (!isHoldingType(row.holdingType)) throw new Error(`holding ${row.id} has an unknown type '${row.holdingType}'`);
  return {
    id: row.id,
    userId: row.userId,
    symbol: row.symbol,
    holdingType: row.holdingType,
    shares: Decimal.parse(row.shares),
    averageCost: Decimal.parse(row.averageCost),
    notes: row.notes,
    purchaseDate: row.purchaseDate,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function toSymbolPrice(row: MarketQuoteOrmEntity): SymbolPrice {
  const quote =
    row.currentPrice === null || row.fetchedAt === null
      ? null
      : {
          symbol: row.symbol,
          currentPrice: Decimal.parse(row.currentPrice),
          change: optional(row.change),
          percentChange: optional(row.percentChange),
          high: optional(row.high),
          low: optional(row.low),
          open: optional(row.open),
          previousClose: optional(row.previousClose),
          quotedAt: row.quotedAt,
          fetchedAt: row.fetchedAt,
        };
  return { symbol: row.symbol, quote, checkedAt: row.checkedAt, notFound: row.notFound, companyName: row.companyName };
}

export function toSnapshot(row: PortfolioSnapshotOrmEntity): Snapshot {
  if (!isSnapshotType(row.snapshotType)) throw new Error(`snapshot ${row.id} has an unknown type '${row.snapshotType}'`);
  return {
    id: row.id,
    userId: row.userId,
    type: row.snapshotType,
    takenAt: row.snapshotTime,
    tradingDate: row.tradingDate,
    notes: row.notes,
    totalValue: Decimal.parse(row.totalValue),
    totalCost: Decimal.parse(row.totalCost),
    totalGainLoss: Decimal.parse(row.totalGainLoss),
    totalReturnPct: Decimal.parse(row.totalReturnPct),
    holdingsCount: row.holdingsCount,
    unpricedCount: row.unpricedCount,
  };
}

function optional(value: string | null): Decimal | null {
  return value === null ? null : Decimal.parse(value);
}
