export interface TradingHistory {
  transactions: string;
  gains: string;
  trades: number;
  dividends: number;
  lots: number;
  rows: number;
  firstDay: string;
  lastDay: string;
}

export function generateTradingHistory(options?: {
  trades?: number;
  dividends?: number;
  symbols?: number;
  brokerLotShare?: number;
  seed?: number;
}): TradingHistory;

/** The generated Schwab history in another broker's layout, and its data rows. */
export function inLayout(schwab: string, layout: 'robinhood' | 'ibkr-flex'): { text: string; rows: number };

/** The symbols an active trader's history of `rows` rows is generated over in the benchmarks (1,026 per 100,000 rows, at least 1,026). */
export function activeTraderSymbols(rows: number): number;

/** An active trader's two years: lots for every sale, positions built in several buys, shorts, splits. */
export function generateActiveTraderHistory(options?: { rows?: number; symbols?: number; dividends?: number; seed?: number }): TradingHistory;

/**
 * An account that holds many lots at once (bench/shapes.mjs): `rows` transaction rows, each a buy or a
 * sale of 1 to `lotsPerSale` of a symbol's lots bought on earlier days, the oldest (`fifo`) or any
 * (`specific`, told by the broker's lot details); `expected` per symbol.
 */
export function generateLotHistory(options?: {
  rows?: number;
  symbols?: number;
  buyShare?: number;
  lotsPerSale?: number;
  pick?: 'specific' | 'fifo';
  partial?: boolean;
  brokerLots?: boolean;
  seed?: number;
}): TradingHistory & { openLots: number; expected: Map<string, { trades: number; cents: number; shares: number }> };

/** A seeded random number generator (mulberry32): numbers in [0, 1), the same sequence for a seed. */
export function random(seed: number): () => number;

/** The ISO date of each transaction row of a Schwab transactions file (generated or a real export), in file order. */
export function transactionDates(pair: { transactions: string }): string[];

/** The part of a Schwab pair whose transactions are dated, and whose lots were closed, in [from, until). */
export function between(pair: { transactions: string; gains: string }, from: string, until: string): { transactions: string; gains: string; rows: number; lots: number };
