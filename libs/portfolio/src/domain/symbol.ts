/**
 * Ticker symbols as the market-data provider knows them: upper case, letters and digits with the
 * punctuation real tickers use (`BRK.B`, `BF-B`, `^GSPC`, `BINANCE:BTCUSDT`).
 */
const SYMBOL = /^[A-Z0-9^][A-Z0-9.\-:/^=_]{0,19}$/;

export const SYMBOL_RULE = 'a ticker of 1 to 20 letters, digits or . - : / ^ = _';

/** Trimmed and upper-cased, or undefined when it is not a plausible ticker. */
export function normalizeSymbol(input: string): string | undefined {
  const symbol = input.trim().toUpperCase();
  return SYMBOL.test(symbol) ? symbol : undefined;
}
