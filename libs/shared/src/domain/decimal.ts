import { writeDigits, writeFixed } from './ascii-digits.js';

/**
 * Exact decimal numbers for money, prices, quantities and percentages.
 *
 * A `Decimal` is an immutable fixed-point number: an integer count of 10^-10 units. Ten places hold
 * every broker figure exactly (cents, 4-decimal prices, fractional shares) and leave room for pro-rata
 * shares of a cost, so sums of many trades stay exact to far below a cent. Only `mul` and `div` can
 * produce more digits than that; they round half away from zero at the tenth place.
 * Rounding for display (`round`, `toFixed`, `toNumber`) is half away from zero, done once, at the edge.
 */
const SCALE = 10;
const UNIT = 10n ** BigInt(SCALE);
const PLAIN_DECIMAL = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** Integer division rounding half away from zero. */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
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

/** Powers of ten up to 10^SCALE as numbers (all exact). */
const NUMBER_POWERS = Array.from({ length: SCALE + 1 }, (_, exponent) => 10 ** exponent);
/** The largest count of units a number holds exactly. */
const MAX_EXACT_UNITS = BigInt(Number.MAX_SAFE_INTEGER);
/** Its negation, made once (negating a BigInt makes a new one each time). */
const MIN_EXACT_UNITS = -MAX_EXACT_UNITS;

const POWERS_OF_TEN = Array.from({ length: 2 * SCALE + 1 }, (_, exponent) => 10n ** BigInt(exponent));

/** 10^exponent as a bigint (the common ones from a table). */
export function pow10(exponent: number): bigint {
  return POWERS_OF_TEN[exponent] ?? 10n ** BigInt(exponent);
}

export type DecimalInput = Decimal | string | number | bigint;

/** Digits a JS number holds exactly (below 2^53): a figure of at most this many can be read into one. */
export const EXACT_DIGITS = 15;

/**
 * The common form of a decimal, read without a regular expression: an optional `-`, at most 15
 * digits, at most SCALE of them after a `.` (what the database's numeric text and most figures are).
 * Undefined for anything else, which `tryParse` reads the long way, to the same value.
 */
function tryParseShort(text: string): Decimal | undefined {
  const negative = text.charCodeAt(0) === 45; /* - */
  let value = 0;
  let digits = 0;
  let fraction = -1;
  for (let at = negative ? 1 : 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code >= 48 && code <= 57) {
      value = value * 10 + (code - 48);
      digits += 1;
      if (fraction >= 0) fraction += 1;
    } else if (code === 46 /* . */ && fraction < 0) {
      fraction = 0;
    } else {
      return undefined;
    }
  }
  if (digits === 0 || digits > EXACT_DIGITS || fraction > SCALE) return undefined;
  return decimalFromDigits(value, Math.max(fraction, 0), negative);
}

/**
 * The decimal whose digits, read as an integer, are `digits` (exact in a number: at most EXACT_DIGITS
 * of them), `places` of them after the point (0 ≤ places ≤ SCALE). Made without a bigint when the units
 * are below 2^53 (the product of the digits and the power of ten is then exact in a number), as most are.
 */
export function decimalFromDigits(digits: number, places: number, negative: boolean): Decimal {
  const scaled = digits * NUMBER_POWERS[SCALE - places];
  if (scaled <= Number.MAX_SAFE_INTEGER) return Decimal.fromExactUnits(negative ? -scaled : scaled);
  const units = BigInt(digits) * POWERS_OF_TEN[SCALE - places];
  return Decimal.fromUnits(negative ? -units : units);
}

/** A Decimal's units are `high × SPLIT + low`, `low` in [0, SPLIT) (`Decimal`). */
const SPLIT = 2 ** 30;
const SPLIT_BITS = 30n;
const LOW_MASK = (1n << SPLIT_BITS) - 1n;
/** `high` is a 32-bit integer: units from -2^61 to 2^61 are held in the two halves. */
const MAX_SPLIT_UNITS = 1n << 61n;
const MIN_SPLIT_UNITS = -MAX_SPLIT_UNITS;
/** While `high` is within ±HIGH_EXACT, `high × SPLIT + low` is below 2^53: exact in a number. */
const HIGH_EXACT = 2 ** 23;

export class Decimal {
  static readonly SCALE = SCALE;
  static readonly ZERO = new Decimal(0, 0);
  static readonly ONE = Decimal.fromUnits(UNIT);
  static readonly HUNDRED = Decimal.fromUnits(100n * UNIT);

  /**
   * The units as two small integers, `high × 2^30 + low` (`low` from 0 to 2^30 − 1, `high` a 32-bit
   * integer), or, beyond ±2^61 units (±230 million), `low` is the units' bigint and `high` 0. V8 keeps
   * a small integer inside its object, where a bigint, or a number beyond 32 bits, is an object of its
   * own: a figure is one object instead of two. A large import holds millions of figures (a trade ten,
   * a lot eight) until it ends, and its young-generation collections copy each object that lives on
   * (docs/imports.md). Arithmetic within a number's exact range (2^53 units, 900,719.9…)
   * is done in numbers; beyond it, and for products and quotients, in bigints.
   */
  private constructor(
    private readonly high: number,
    private readonly low: number | bigint,
  ) {}

  /** From the raw count of 10^-SCALE units. */
  static fromUnits(units: bigint): Decimal {
    if (units <= MAX_EXACT_UNITS && units >= MIN_EXACT_UNITS) return Decimal.fromExactUnits(Number(units));
    if (units < MAX_SPLIT_UNITS && units >= MIN_SPLIT_UNITS) return new Decimal(Number(units >> SPLIT_BITS), Number(units & LOW_MASK));
    return new Decimal(0, units);
  }

  /** From a count of units that is an integer a number holds exactly (|units| ≤ 2^53). */
  static fromExactUnits(units: number): Decimal {
    if (units === 0) return Decimal.ZERO; // -0 as well: a high half of -0 would not be a small integer
    const high = Math.floor(units / SPLIT);
    return new Decimal(high, units - high * SPLIT);
  }

  /** From a plain decimal string, a finite number (via its shortest decimal form) or an integer. */
  static of(value: DecimalInput): Decimal {
    if (value instanceof Decimal) {
      return value;
    }
    if (typeof value === 'bigint') {
      return Decimal.fromUnits(value * UNIT);
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
    return tryParseShort(text) ?? Decimal.tryParseAnyForm(text);
  }

  /** `tryParse` for every form it takes (signs, exponents, surrounding spaces, any number of digits). */
  private static tryParseAnyForm(text: string): Decimal | undefined {
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

  static sum(values: Iterable<Decimal>): Decimal {
    // In a number while the sum is exact in one, then in a bigint.
    let exact = 0;
    let big: bigint | undefined;
    for (const value of values) {
      const units = value.exactUnits;
      if (big === undefined && units !== undefined) {
        const next = exact + units;
        if (next <= Number.MAX_SAFE_INTEGER && next >= -Number.MAX_SAFE_INTEGER) {
          exact = next;
          continue;
        }
      }
      big = (big ?? BigInt(exact)) + value.rawUnits;
    }
    return big === undefined ? Decimal.fromExactUnits(exact) : Decimal.fromUnits(big);
  }

  static min(first: Decimal, ...rest: Decimal[]): Decimal {
    return rest.reduce((low, value) => (value.cmp(low) < 0 ? value : low), first);
  }

  static max(first: Decimal, ...rest: Decimal[]): Decimal {
    return rest.reduce((high, value) => (value.cmp(high) > 0 ? value : high), first);
  }

  /** The raw count of 10^-SCALE units (for storage as an integer, or exact comparisons). */
  get rawUnits(): bigint {
    const { high, low } = this;
    if (typeof low === 'bigint') return low;
    if (high < HIGH_EXACT && high >= -HIGH_EXACT) return BigInt(high * SPLIT + low);
    return (BigInt(high) << SPLIT_BITS) + BigInt(low);
  }

  /** The count of units as a number where one holds it exactly (below 2^53 either way), else undefined. */
  get exactUnits(): number | undefined {
    const { high, low } = this;
    return typeof low === 'number' && high < HIGH_EXACT && high >= -HIGH_EXACT ? high * SPLIT + low : undefined;
  }

  /**
   * Whether `exactUnits` is defined, without making its number: a count of units beyond 2^31 is a
   * heap number of its own when a call returns it (writing an import's figures made millions of them).
   */
  get hasExactUnits(): boolean {
    const { high, low } = this;
    return typeof low === 'number' && high < HIGH_EXACT && high >= -HIGH_EXACT;
  }

  /**
   * Writes the text `toString` gives as ASCII bytes at `at` (room seen to by the caller: number-bytes.ts),
   * answering where it ends: without making the string, or, within a number's exact range (every broker
   * figure and nearly every sum), the count of units as a number of its own. The units are parted into
   * the whole and the places by a division (a double's remainder is a call in V8), the places written as
   * two halves below 10^5 in small-integer arithmetic.
   */
  writeText(bytes: Uint8Array, at: number): number {
    if (!this.hasExactUnits) return writeAscii(bytes, this.toString(), at);
    return Decimal.writeExactUnitsText(this.high * SPLIT + (this.low as number), bytes, at);
  }

  /**
   * Writes the text `toString` gives for the Decimal of `units` (`fromExactUnits`: a whole number below
   * 2^53 either way) as `writeText` does, without making that Decimal.
   */
  static writeExactUnitsText(units: number, bytes: Uint8Array, at: number): number {
    if (units < 0) bytes[at++] = 0x2d; /* - */
    const rest = Math.abs(units);
    // Both divisions below give exact floors: a quotient of integers below 2^53 by 10^10 is below 2^20,
    // where doubles are 2^-33 apart, so one short of a whole number by 10^-10 or more stays short of it
    // (and so does the fraction's by 10^5, short by 10^-5 or more).
    const whole = Math.floor(rest / UNIT_NUMBER);
    const fraction = rest - whole * UNIT_NUMBER;
    at = writeDigits(bytes, whole, at);
    if (fraction === 0) return at;
    const first = Math.floor(fraction / HALF_UNIT);
    const second = fraction - first * HALF_UNIT;
    let last = second === 0 ? first : second;
    let width = HALF_PLACES;
    while (last % 10 === 0) {
      last /= 10;
      width -= 1;
    }
    bytes[at++] = 0x2e; /* . */
    if (second !== 0) at = writeFixed(bytes, first, HALF_PLACES, at);
    return writeFixed(bytes, last, width, at);
  }

  /**
   * Writes the text `rawUnits.toString()` gives (the count of units) as ASCII bytes at `at`, answering
   * where it ends, as `writeText` writes `toString`'s (room seen to by the caller: number-bytes.ts `unitsTextRoom`).
   */
  writeUnitsText(bytes: Uint8Array, at: number): number {
    if (!this.hasExactUnits) return writeAscii(bytes, this.rawUnits.toString(), at);
    const units = this.high * SPLIT + (this.low as number);
    if (units < 0) bytes[at++] = 0x2d; /* - */
    const rest = Math.abs(units);
    // Below 2^53: the last eight digits, and those before them. The division gives the exact floor: its
    // quotient is below 2^27, where doubles are 2^-26 apart, so one short of a whole number by 10^-8 or
    // more (7.5·10^-9 is half a step) stays short of it.
    const lead = Math.floor(rest / TAIL_UNIT);
    const tail = rest - lead * TAIL_UNIT;
    return lead === 0 ? writeDigits(bytes, tail, at) : writeFixed(bytes, tail, TAIL_DIGITS, writeDigits(bytes, lead, at));
  }

  add(other: DecimalInput): Decimal {
    const that = Decimal.of(other);
    const a = this.exactUnits;
    const b = that.exactUnits;
    if (a !== undefined && b !== undefined) {
      // Exact whenever the true sum is below 2^53; a rounded one is 2^53 or more.
      const sum = a + b;
      if (sum <= Number.MAX_SAFE_INTEGER && sum >= -Number.MAX_SAFE_INTEGER) return Decimal.fromExactUnits(sum);
    }
    return Decimal.fromUnits(this.rawUnits + that.rawUnits);
  }

  sub(other: DecimalInput): Decimal {
    const that = Decimal.of(other);
    const a = this.exactUnits;
    const b = that.exactUnits;
    if (a !== undefined && b !== undefined) {
      const difference = a - b;
      if (difference <= Number.MAX_SAFE_INTEGER && difference >= -Number.MAX_SAFE_INTEGER) return Decimal.fromExactUnits(difference);
    }
    return Decimal.fromUnits(this.rawUnits - that.rawUnits);
  }

  /** Product, rounded half away from zero at SCALE places. */
  mul(other: DecimalInput): Decimal {
    const that = Decimal.of(other);
    const fast = exactProduct(this.exactUnits, that.exactUnits) ?? exactProduct(that.exactUnits, this.exactUnits);
    return fast ?? Decimal.fromUnits(divideRounded(this.rawUnits * that.rawUnits, UNIT));
  }

  /** Quotient, rounded half away from zero at SCALE places. Throws RangeError on division by zero. */
  div(other: DecimalInput): Decimal {
    const that = Decimal.of(other);
    const a = this.exactUnits;
    const b = wholeOf(that.exactUnits);
    if (a !== undefined && b !== undefined && b !== 0) {
      const quotient = quotientInNumbers(a, b);
      if (quotient !== undefined) return Decimal.fromExactUnits(quotient);
    }
    return Decimal.fromUnits(divideRounded(this.rawUnits * UNIT, that.rawUnits));
  }

  /** `this × numerator ÷ denominator` with a single rounding: the exact pro-rata share. */
  mulDiv(numerator: DecimalInput, denominator: DecimalInput): Decimal {
    const by = Decimal.of(numerator);
    const over = Decimal.of(denominator);
    const a = this.exactUnits;
    const n = wholeOf(by.exactUnits);
    const d = wholeOf(over.exactUnits);
    if (a !== undefined && n !== undefined && d !== undefined && d !== 0) {
      const share = shareInNumbers(a, n, d);
      if (share !== undefined) return Decimal.fromExactUnits(share);
    }
    return Decimal.fromUnits(divideRounded(this.rawUnits * by.rawUnits, over.rawUnits));
  }

  neg(): Decimal {
    const units = this.exactUnits;
    return units !== undefined ? Decimal.fromExactUnits(-units) : Decimal.fromUnits(-this.rawUnits);
  }

  abs(): Decimal {
    return this.isNegative() ? this.neg() : this;
  }

  /** -1, 0 or 1. */
  sign(): -1 | 0 | 1 {
    const { high, low } = this;
    if (typeof low === 'bigint') return low < 0n ? -1 : 1; // beyond ±2^61: never zero
    return high < 0 ? -1 : high === 0 && low === 0 ? 0 : 1;
  }

  cmp(other: DecimalInput): -1 | 0 | 1 {
    const that = Decimal.of(other);
    const { high, low } = this;
    const otherLow = that.low;
    if (typeof low === 'number') {
      // Both in halves: the high halves first, then the low ones (never negative).
      if (typeof otherLow === 'number') {
        if (high !== that.high) return high < that.high ? -1 : 1;
        return low === otherLow ? 0 : low < otherLow ? -1 : 1;
      }
      // The other beyond ±2^61 (a figure's limit, when a file's figure is checked against it): its sign decides.
      return otherLow < 0n ? 1 : -1;
    }
    if (typeof otherLow === 'number') return low < 0n ? -1 : 1;
    return low === otherLow ? 0 : low < otherLow ? -1 : 1;
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
    return this.sign() === 0;
  }

  isNegative(): boolean {
    return this.sign() < 0;
  }

  isPositive(): boolean {
    return this.sign() > 0;
  }

  /** Rounded half away from zero to `places` decimals (0 ≤ places). */
  round(places: number): Decimal {
    assertPlaces(places);
    if (places >= SCALE) {
      return this;
    }
    const exact = this.exactUnits;
    if (exact !== undefined) {
      const step = NUMBER_POWERS[SCALE - places];
      // Below 2^52 units, rounded by less than a step (10^10 at most): still exact in a number.
      const steps = quotientInNumbers(exact, step);
      if (steps !== undefined) return Decimal.fromExactUnits(steps * step);
    }
    const factor = pow10(SCALE - places);
    return Decimal.fromUnits(divideRounded(this.rawUnits, factor) * factor);
  }

  /** Exactly `places` decimals, rounded half away from zero; never `-0.00`. */
  toFixed(places: number): string {
    assertPlaces(places);
    let units = this.rawUnits;
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
    if (places === undefined) return Number(this.toString());
    assertPlaces(places);
    const exact = this.exactUnits;
    if (places < SCALE && exact !== undefined) {
      // The same rounding in a number: every step below is exact (integers under 2^53), and the last
      // division is correctly rounded, so it gives the double nearest the rounded value, as
      // Number(toFixed(places)) does: without the text in between, which the reports do per figure.
      const step = NUMBER_POWERS[SCALE - places];
      const rest = exact % step;
      let rounded = (exact - rest) / step;
      if (Math.abs(rest) * 2 >= step) rounded += exact < 0 ? -1 : 1;
      return rounded / NUMBER_POWERS[places];
    }
    return Number(this.toFixed(places));
  }

  /** Shortest exact form: `-12.5`, `0.0001`, `3`. */
  toString(): string {
    const sign = this.sign();
    if (sign === 0) {
      return '0';
    }
    const negative = sign < 0;
    // A bigint's digits: V8 writes them in half the time of a number's beyond 2^31.
    const units = this.rawUnits;
    const digits = (negative ? -units : units).toString().padStart(SCALE + 1, '0');
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

/*
 * Products and quotients in numbers, for the common case of a whole factor or divisor (a count of
 * shares, a hundred): bigint arithmetic made five or six bigints an operation, the matching of a
 * 100,000-row import some 60 MB of them. Every step below works on integers under 2^52 (a product or
 * quotient of such numbers is then exact, or checked to be), so the result is the bigint one's; any
 * other case answers undefined and is left to bigints.
 */

/** 10^SCALE, the units of 1, as a number. */
const UNIT_NUMBER = NUMBER_POWERS[SCALE];
/** `writeText` writes the SCALE places as two halves of this many digits, each below 2^31. */
const HALF_PLACES = SCALE / 2;
const HALF_UNIT = NUMBER_POWERS[HALF_PLACES];
/** Writes `text` (ASCII) at `at`, answering where it ends. */
function writeAscii(bytes: Uint8Array, text: string, at: number): number {
  for (let index = 0; index < text.length; index += 1) bytes[at + index] = text.charCodeAt(index);
  return at + text.length;
}

/** `writeUnitsText` writes a count of units below 2^53 as its last TAIL_DIGITS digits and those before them. */
const TAIL_DIGITS = 8;
const TAIL_UNIT = NUMBER_POWERS[TAIL_DIGITS];
/** Integers up to this size keep every step of `quotientInNumbers` exact (a product of a quotient and a divisor stays under 2^53). */
const NUMBER_STEP_LIMIT = 2 ** 52;

/** `units` ÷ 10^SCALE where that is a whole number (an integral value), else undefined. */
function wholeOf(units: number | undefined): number | undefined {
  return units !== undefined && units % UNIT_NUMBER === 0 ? units / UNIT_NUMBER : undefined;
}

/** `a` units times the decimal of `b` units when that is whole: the product's units, exact, or undefined. */
function exactProduct(a: number | undefined, b: number | undefined): Decimal | undefined {
  const whole = wholeOf(b);
  if (a === undefined || whole === undefined) return undefined;
  const product = a * whole;
  return Math.abs(product) < NUMBER_STEP_LIMIT ? Decimal.fromExactUnits(product) : undefined;
}

/**
 * ⌊n ÷ d⌋ for integers, 0 ≤ n and 0 < d below 2^52. Exact though the division of numbers is rounded:
 * a quotient short of a whole number k is short of it by 1/d or more, more than half the k / 2^52
 * between doubles near k (k × d < n + d < 2^53), so the rounding never reaches k.
 */
function floorQuotient(n: number, d: number): number {
  return Math.floor(n / d);
}

/** `a ÷ b` for integers, rounded half away from zero (as `divideRounded`); undefined beyond 2^52. */
function quotientInNumbers(a: number, b: number): number | undefined {
  const numerator = Math.abs(a);
  const denominator = Math.abs(b);
  if (numerator >= NUMBER_STEP_LIMIT || denominator >= NUMBER_STEP_LIMIT) return undefined;
  const quotient = floorQuotient(numerator, denominator);
  const rounded = 2 * (numerator - quotient * denominator) >= denominator ? quotient + 1 : quotient;
  return a < 0 !== b < 0 ? -rounded : rounded;
}

/**
 * `a × n ÷ d` for integers, rounded once, half away from zero (as `divideRounded(a × n, d)`); undefined
 * where a step would reach 2^52. As `a = q × d + r`, it is `q × n + (r × n) ÷ d`, whose first part is
 * whole: the rounding is the second's.
 */
function shareInNumbers(a: number, n: number, d: number): number | undefined {
  const magnitude = Math.abs(a);
  const by = Math.abs(n);
  const over = Math.abs(d);
  if (magnitude >= NUMBER_STEP_LIMIT || over >= NUMBER_STEP_LIMIT) return undefined;
  const whole = floorQuotient(magnitude, over);
  const rest = magnitude - whole * over;
  const part = rest * by;
  const wholePart = whole * by;
  if (part >= NUMBER_STEP_LIMIT || wholePart >= NUMBER_STEP_LIMIT) return undefined;
  const fraction = quotientInNumbers(part, over);
  if (fraction === undefined || wholePart + fraction >= NUMBER_STEP_LIMIT) return undefined;
  const share = wholePart + fraction;
  return a < 0 !== n < 0 !== d < 0 ? -share : share;
}

function assertPlaces(places: number): void {
  if (!Number.isInteger(places) || places < 0 || places > 100) {
    throw new RangeError(`Decimal places must be an integer from 0 to 100, got ${places}`);
  }
}

const CENT_SHIFT = 10n ** BigInt(SCALE - 2);
/** The places a product of two decimals has beyond the cent. */
const PRODUCT_CENT_SHIFT = 10n ** BigInt(2 * SCALE - 2);

/** `a × b` rounded once, half away from zero, to the cent (no intermediate rounding). */
export function productInCents(a: Decimal, b: Decimal): Decimal {
  const cents = divideRounded(a.rawUnits * b.rawUnits, PRODUCT_CENT_SHIFT);
  return Decimal.fromUnits(cents * CENT_SHIFT);
}

/** `part ÷ whole × 100` rounded once to two decimals; 0 when `whole` is zero. */
export function percentage(part: Decimal, whole: Decimal): Decimal {
  if (whole.isZero()) return Decimal.ZERO;
  const hundredths = divideRounded(part.rawUnits * 10_000n, whole.rawUnits);
  return Decimal.fromUnits(hundredths * CENT_SHIFT);
}

/** Number of decimals written after the point (`12.50` → 2). */
export function decimalPlaces(value: Decimal): number {
  const units = value.exactUnits;
  if (units !== undefined) {
    // Without the text: the trailing zeros of the units, counted in a number (exact below 2^53).
    let rest = Math.abs(units);
    if (rest === 0) return 0;
    // Eight, four, two and one zeros at a time (SCALE is 10): each step strips them only when all are there.
    let places = SCALE;
    for (const zeros of [8, 4, 2, 1]) {
      const power = NUMBER_POWERS[zeros];
      if (places >= zeros && rest % power === 0) {
        rest /= power;
        places -= zeros;
      }
    }
    return places;
  }
  const text = value.toString();
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}
