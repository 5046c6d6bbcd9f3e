import type { SignedIn } from './sign-in.js';

/** expected.json's tolerance for money, prices and percentages (shares are compared to 1e-6). */
export const TOLERANCE = 0.01;

/**
 * Compares `actual` with `wanted` field by field: numbers within `tolerance`, everything else equal;
 * only the fields `wanted` names (the service may add more). Returns the differences, path by path,
 * so that a failing test shows all of them at once.
 */
export function differences(actual: unknown, wanted: unknown, tolerance = TOLERANCE, path = ''): string[] {
  if (typeof wanted === 'number') {
    return typeof actual === 'number' && Math.abs(actual - wanted) <= tolerance + 1e-9 ? [] : [`${path}: ${String(actual)} ≠ ${wanted}`];
  }
  if (Array.isArray(wanted)) {
    if (!Array.isArray(actual)) return [`${path}: not a list (${JSON.stringify(actual)})`];
    if (actual.length !== wanted.length) return [`${path}: ${actual.length} items ≠ ${wanted.length}`];
    return wanted.flatMap((item, index) => differences(actual[index], item, tolerance, `${path}[${index}]`));
  }
  if (wanted !== null && typeof wanted === 'object') {
    if (actual === null || typeof actual !== 'object') return [`${path}: ${JSON.stringify(actual)} is not an object`];
    return Object.entries(wanted).flatMap(([key, value]) => differences((actual as Record<string, unknown>)[key], value, tolerance, `${path}.${key}`));
  }
  return actual === wanted ? [] : [`${path}: ${JSON.stringify(actual)} ≠ ${JSON.stringify(wanted)}`];
}

/** Asserts no differences (the message lists every one). */
export function expectMatches(actual: unknown, wanted: unknown, tolerance = TOLERANCE): void {
  expect(differences(actual, wanted, tolerance)).toEqual([]);
}

/** Trades are identified by (symbol, side, buy_date, sell_date) and volume (fixtures/README.md). */
export function tradeKey(trade: { symbol: string; side: string; buy_date: string; sell_date: string; volume: number }): string {
  return [trade.symbol, trade.side, trade.buy_date, trade.sell_date, trade.volume.toFixed(6)].join('|');
}

/** Orders two trade lists the same way so they can be compared item by item. */
export function byTradeKey<T extends Parameters<typeof tradeKey>[0]>(trades: readonly T[]): T[] {
  return [...trades].sort((a, b) => (tradeKey(a) < tradeKey(b) ? -1 : tradeKey(a) > tradeKey(b) ? 1 : 0));
}

/** A trade of expected.json as the API shows it: every field but the CSV line numbers. */
export function shownTrade(trade: Record<string, unknown>): Record<string, unknown> {
  const { tx_line: _tx, lot_line: _lot, ...rest } = trade;
  return rest;
}

export function shownDividend(dividend: Record<string, unknown>): Record<string, unknown> {
  const { line: _line, ...rest } = dividend;
  return rest;
}

/** GET `path` as `session`: the status and the parsed body. */
export async function getJson(session: SignedIn, path: string): Promise<{ status: number; body: any; text: string }> {
  const response = await session.fetch(path);
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), text };
}
