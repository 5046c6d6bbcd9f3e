import { Decimal } from './decimal.js';

/** Integer division rounding half away from zero. */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError('Division by zero');
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  if (remainder === 0n) return quotient;
  const twice = (remainder < 0n ? -remainder : remainder) * 2n;
  const absDenominator = denominator < 0n ? -denominator : denominator;
  if (twice < absDenominator) return quotient;
  return numerator < 0n !== denominator < 0n ? quotient - 1n : quotient + 1n;
}

const CENT_SHIFT = 10n ** BigInt(Decimal.SCALE - 2);

/** `a × b` rounded once, half away from zero, to the cent (no intermediate rounding). */
export function productInCents(a: Decimal, b: Decimal): Decimal {
  const cents = divideRounded(a.rawUnits * b.rawUnits, 10n ** BigInt(2 * Decimal.SCALE - 2));
  return Decimal.fromUnits(cents * CENT_SHIFT);
}

/** `part ÷ whole × 100` rounded once to two decimals; 0 when `whole` is zero. */
export function percentage(part: Decimal, whole: Decimal): Decimal {
  if (whole.isZero()) return Decimal.ZERO;
  const hundredths = divideRounded(part.rawUnits * 10_000n, whole.rawUnits);
  return Decimal.fromUnits(hundredths * CENT_SHIFT);
}

const GROUPED = /^\d{1,3}(,\d{3})+(\.\d*)?$/;

/**
 * A figure as people type it in a spreadsheet: `12.5`, `1,234.5678`, `$1,234.56`, `-3`. Thousands
 * separators must group by three. Undefined when it is not a number.
 */
export function parseFigure(cell: string): Decimal | undefined {
  let text = cell.trim();
  let negative = false;
  if (text.startsWith('-')) {
    negative = true;
    text = text.slice(1).trim();
  }
  if (text.startsWith('$')) text = text.slice(1).trim();
  if (text.includes(',')) {
    if (!GROUPED.test(text)) return undefined;
    text = text.replaceAll(',', '');
  }
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(text)) return undefined;
  const value = Decimal.tryParse(text);
  return value && negative ? Decimal.ZERO.sub(value) : value;
}

/** Number of decimals written after the point (`12.50` → 2). */
export function decimalPlaces(value: Decimal): number {
  const text = value.toString();
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}
