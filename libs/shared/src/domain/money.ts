/**
 * Exact decimal numbers for money, prices, quantities and percentages.
 *
 * A `Decimal` is an immutable fixed-point number: a `bigint` count of 10^-10 units. Ten places hold
 * every broker figure exactly (cents, 4-decimal prices, fractional shares) and leave room for pro-rata
 * shares of a cost, so sums of many trades stay exact to far below a cent. Only `mul` and `div` can
 * produce more digits than that; they round half away from zero at the tenth place.
 * Rounding for display (`round`, `toFixed`, `toNumber`) is half away from zero, done once, at the edge.
 */
const SCALE = 10;
const UNIT = 10n ** BigInt(SCALE);
const PLAIN_DECIMAL = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** Integer division rounding half away from zero. */
function divideRounded(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) {
    throw new RangeError('Division by zero');
  }
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  if (remainder === 0n) {
    return quotient;
  }
  const twiceRemainder = (remainder < 0n ? -remainder : remainder) * 2n;
  const absDenominator = denominator < 0n ? -denominator : denominator;
  if (twiceRemainder < absDenominator) {
    return quotient;
  }
  const negative = numerator < 0n !== denominator < 0n;
  return negative ? quotient - 1n : quotient + 1n;
}

const POWERS_OF_TEN = Array.from({ length: 2 * SCALE + 1 }, (_, exponent) => 10n ** BigInt(exponent));

function pow10(exponent: number): bigint {
  return POWERS_OF_TEN[exponent] ?? 10n ** BigInt(exponent);
}

export type DecimalInput = Decimal | string | number | bigint;

export class Decimal {
  static readonly SCALE = SCALE;
  static readonly ZERO = new Decimal(0n);
  static readonly ONE = new Decimal(UNIT);
  static readonly HUNDRED = new Decimal(100n * UNIT);

  private constructor(private readonly units: bigint) {}

  /** From the raw count of 10^-SCALE units. */
  static fromUnits(units: bigint): Decimal {
    return units === 0n ? Decimal.ZERO : new Decimal(units);
  }

  /** From a plain decimal string, a finite number (via its shortest decimal form) or an integer. */
  static of(value: DecimalInput): Decimal {
    if (value instanceof Decimal) {
      return value;
    }
    if (typeof value === 'bigint') {
      return new Decimal(value * UNIT);
    }
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) {
        throw new RangeError(`Not a finite number: ${value}`);
      }
      return Decimal.parse(String(value));
    }
    return Decimal.parse(value);
  }

  /** A plain decimal such as `-12.5`, `0.0001`, `1e-7` (no `$`, no separators). Throws RangeError. */
  static parse(text: string): Decimal {
    const parsed = Decimal.tryParse(text);
    if (parsed === undefined) {
      throw new RangeError(`Not a decimal number: '${text}'`);
    }
    return parsed;
  }

  static tryParse(text: string): Decimal | undefined {
    const match = PLAIN_DECIMAL.exec(text.trim());
    if (!match) {
      return undefined;
    }
    const [, sign, integerPart = '', fractionPart = '', exponentText] = match;
    if (integerPart === '' && fractionPart === '') {
      return undefined;
    }
    let digits = BigInt(`${integerPart}${fractionPart}` || '0');
    // value = digits × 10^(exponent − fraction length); bring it to SCALE places.
    const shift = SCALE - fractionPart.length + (exponentText ? Number(exponentText) : 0);
    if (!Number.isSafeInteger(shift) || Math.abs(shift) > 400) {
      return undefined;
    }
    digits = shift >= 0 ? digits * pow10(shift) : divideRounded(digits, pow10(-shift));
    return Decimal.fromUnits(sign === '-' ? -digits : digits);
  }

  /**
   * A figure as brokers write it: `$1,234.56`, `-$5.00`, `$-5.00`, `($5.00)`, `1,234.5678`, `12.5`.
   * Thousands separators are optional but, when present, must group by three. Throws RangeError.
   */
  static parseMoney(text: string): Decimal {
    const parsed = Decimal.tryParseMoney(text);
    if (parsed === undefined) {
      throw new RangeError(`Not an amount: '${text}'`);
    }
    return parsed;
  }

  static tryParseMoney(text: string): Decimal | undefined {
    return readBrokerFigure(text, false);
  }

  /** A percentage as brokers write it: `-15.002388237575%`, `0.68%`, `12.5` (the `%` is optional). */
  static tryParsePercent(text: string): Decimal | undefined {
    return readBrokerFigure(text, true);
  }

  static sum(values: Iterable<Decimal>): Decimal {
    let total = 0n;
    for (const value of values) {
      total += value.units;
    }
    return Decimal.fromUnits(total);
  }

  static min(first: Decimal, ...rest: Decimal[]): Decimal {
    return rest.reduce((low, value) => (value.units < low.units ? value : low), first);
  }

  static max(first: Decimal, ...rest: Decimal[]): Decimal {
    return rest.reduce((high, value) => (value.units > high.units ? value : high), first);
  }

  /** The raw count of 10^-SCALE units (for storage as an integer, or exact comparisons). */
  get rawUnits(): bigint {
    return this.units;
  }

  add(other: DecimalInput): Decimal {
    return Decimal.fromUnits(this.units + Decimal.of(other).units);
  }

  sub(other: DecimalInput): Decimal {
    return Decimal.fromUnits(this.units - Decimal.of(other).units);
  }

  /** Product, rounded half away from zero at SCALE places. */
  mul(other: DecimalInput): Decimal {
    return Decimal.fromUnits(divideRounded(this.units * Decimal.of(other).units, UNIT));
  }

  /** Quotient, rounded half away from zero at SCALE places. Throws RangeError on division by zero. */
  div(other: DecimalInput): Decimal {
    return Decimal.fromUnits(divideRounded(this.units * UNIT, Decimal.of(other).units));
  }

  /** `this × numerator ÷ denominator` with a single rounding: the exact pro-rata share. */
  mulDiv(numerator: DecimalInput, denominator: DecimalInput): Decimal {
    return Decimal.fromUnits(divideRounded(this.units * Decimal.of(numerator).units, Decimal.of(denominator).units));
  }

  neg(): Decimal {
    return Decimal.fromUnits(-this.units);
  }

  abs(): Decimal {
    return this.units < 0n ? new Decimal(-this.units) : this;
  }

  /** -1, 0 or 1. */
  sign(): -1 | 0 | 1 {
    return this.units === 0n ? 0 : this.units < 0n ? -1 : 1;
  }

  cmp(other: DecimalInput): -1 | 0 | 1 {
    const otherUnits = Decimal.of(other).units;
    return this.units === otherUnits ? 0 : this.units < otherUnits ? -1 : 1;
  }

  eq(other: DecimalInput): boolean {
    return this.cmp(other) === 0;
  }

  lt(other: DecimalInput): boolean {
    return this.cmp(other) < 0;
  }

  lte(other: DecimalInput): boolean {
    return this.cmp(other) <= 0;
  }

  gt(other: DecimalInput): boolean {
    return this.cmp(other) > 0;
  }

  gte(other: DecimalInput): boolean {
    return this.cmp(other) >= 0;
  }

  isZero(): boolean {
    return this.units === 0n;
  }

  isNegative(): boolean {
    return this.units < 0n;
  }

  isPositive(): boolean {
    return this.units > 0n;
  }

  /** Rounded half away from zero to `places` decimals (0 ≤ places). */
  round(places: number): Decimal {
    assertPlaces(places);
    if (places >= SCALE) {
      return this;
    }
    const factor = pow10(SCALE - places);
    return Decimal.fromUnits(divideRounded(this.units, factor) * factor);
  }

  /** Exactly `places` decimals, rounded half away from zero; never `-0.00`. */
  toFixed(places: number): string {
    assertPlaces(places);
    let units = this.units;
    let scale = SCALE;
    if (places < SCALE) {
      units = divideRounded(units, pow10(SCALE - places));
      scale = places;
    }
    const negative = units < 0n;
    let digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
    if (places > scale) {
      digits += '0'.repeat(places - scale);
    }
    const cut = digits.length - places;
    const text = places === 0 ? digits : `${digits.slice(0, cut)}.${digits.slice(cut)}`;
    return negative ? `-${text}` : text;
  }

  /** For responses: rounded to `places` first (half away from zero), then converted; exact value when omitted. */
  toNumber(places?: number): number {
    return Number(places === undefined ? this.toString() : this.toFixed(places));
  }

  /** Shortest exact form: `-12.5`, `0.0001`, `3`. */
  toString(): string {
    if (this.units === 0n) {
      return '0';
    }
    const negative = this.units < 0n;
    const digits = (negative ? -this.units : this.units).toString().padStart(SCALE + 1, '0');
    const cut = digits.length - SCALE;
    let fractionEnd = digits.length;
    while (fractionEnd > cut && digits.charCodeAt(fractionEnd - 1) === 48) {
      fractionEnd -= 1;
    }
    const text = fractionEnd > cut ? `${digits.slice(0, cut)}.${digits.slice(cut, fractionEnd)}` : digits.slice(0, cut);
    return negative ? `-${text}` : text;
  }

  toJSON(): string {
    return this.toString();
  }
}

function assertPlaces(places: number): void {
  if (!Number.isInteger(places) || places < 0 || places > 100) {
    throw new RangeError(`Decimal places must be an integer from 0 to 100, got ${places}`);
  }
}

/**
 * Scans a broker figure in one pass: optional `(…)`, sign, `$`, sign, digits with optional thousands
 * separators (groups of three), optional fraction, optional `%` (percentages only). This is the
 * import's hot path (several figures per row, 100,000s of rows), hence no regular expressions.
 */
function readBrokerFigure(text: string, percent: boolean): Decimal | undefined {
  let start = 0;
  let end = text.length;
  const trim = (): void => {
    while (start < end && text.charCodeAt(start) <= 32) start += 1;
    while (end > start && text.charCodeAt(end - 1) <= 32) end -= 1;
  };
  trim();
  let negative = false;
  let parenthesised = false;
  if (start < end && text.charCodeAt(start) === 40 /* ( */) {
    if (text.charCodeAt(end - 1) !== 41 /* ) */) return undefined;
    parenthesised = true;
    negative = true;
    start += 1;
    end -= 1;
    trim();
  }
  if (percent && end > start && text.charCodeAt(end - 1) === 37 /* % */) {
    end -= 1;
    trim();
  }
  let signs = 0;
  let dollars = 0;
  for (;;) {
    const code = text.charCodeAt(start);
    if ((code === 45 /* - */ || code === 43) /* + */ && start < end) {
      negative = code === 45 ? !negative : negative;
      signs += 1;
    } else if (code === 36 /* $ */ && start < end) {
      dollars += 1;
    } else {
      break;
    }
    start += 1;
    trim();
  }
  if (signs > 1 || dollars > 1 || (signs > 0 && parenthesised)) return undefined;
  let digits = '';
  let groupLength = 0;
  let grouped = false;
  let index = start;
  for (; index < end; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57) {
      groupLength += 1;
    } else if (code === 44 /* , */) {
      if (grouped ? groupLength !== 3 : groupLength < 1 || groupLength > 3) return undefined;
      digits += text.slice(index - groupLength, index);
      grouped = true;
      groupLength = 0;
    } else {
      break;
    }
  }
  if (grouped && groupLength !== 3) return undefined;
  digits += text.slice(index - groupLength, index);
  let fraction = '';
  if (index < end && text.charCodeAt(index) === 46 /* . */) {
    const fractionStart = index + 1;
    for (index = fractionStart; index < end; index += 1) {
      const code = text.charCodeAt(index);
      if (code < 48 || code > 57) return undefined;
    }
    fraction = text.slice(fractionStart, end);
  }
  if (index !== end || (digits === '' && fraction === '')) return undefined;
  let units = BigInt(digits + fraction || '0');
  units = fraction.length <= SCALE ? units * pow10(SCALE - fraction.length) : divideRounded(units, pow10(fraction.length - SCALE));
  return Decimal.fromUnits(negative ? -units : units);
}
