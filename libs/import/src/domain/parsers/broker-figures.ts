import { Decimal, decimalFromDigits, divideRounded, EXACT_DIGITS, pow10 } from '@app/shared/domain';

/**
 * Figures as brokers and spreadsheets write them, read exactly: the one parser of money, quantity
 * and percentage cells, for the brokerage files and the portfolio's holdings CSV alike.
 */

const SCALE = Decimal.SCALE;

/** The first index from `start` (before `end`) that is not a space or control character. */
function skipSpaces(text: string, start: number, end: number): number {
  while (start < end && text.charCodeAt(start) <= 32) start += 1;
  return start;
}

/** `end` moved back over spaces and control characters, not before `start`. */
function trimSpaces(text: string, start: number, end: number): number {
  while (end > start && text.charCodeAt(end - 1) <= 32) end -= 1;
  return end;
}

/**
 * A figure as brokers write it: `$1,234.56`, `-$5.00`, `$-5.00`, `($5.00)`, `1,234.5678`, `12.5`,
 * `.5`. Thousands separators are optional but, when present, must group by three. Undefined when it
 * is not one.
 */
export function tryParseAmount(text: string): Decimal | undefined {
  return readBrokerFigure(text, false);
}

/** The same, throwing RangeError when the text is not a figure. */
export function parseAmount(text: string): Decimal {
  const parsed = tryParseAmount(text);
  if (parsed === undefined) {
    throw new RangeError(`Not an amount: '${text}'`);
  }
  return parsed;
}

/** A percentage as brokers write it: `-15.002388237575%`, `0.68%`, `12.5` (the `%` is optional). */
export function tryParsePercent(text: string): Decimal | undefined {
  return readBrokerFigure(text, true);
}

/**
 * Scans a broker figure in one pass: optional `(…)`, sign, `$`, sign, digits with optional thousands
 * separators (groups of three), optional fraction, optional `%` (percentages only). This is the
 * import's hot path (several figures per row, 100,000s of rows), hence no regular expressions.
 */
function readBrokerFigure(text: string, percent: boolean): Decimal | undefined {
  let start = skipSpaces(text, 0, text.length);
  let end = trimSpaces(text, start, text.length);
  let negative = false;
  let parenthesised = false;
  if (start < end && text.charCodeAt(start) === 40 /* ( */) {
    if (text.charCodeAt(end - 1) !== 41 /* ) */) return undefined;
    parenthesised = true;
    negative = true;
    start = skipSpaces(text, start + 1, end - 1);
    end = trimSpaces(text, start, end - 1);
  }
  if (percent && end > start && text.charCodeAt(end - 1) === 37 /* % */) {
    end = trimSpaces(text, start, end - 1);
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
    start = skipSpaces(text, start + 1, end);
  }
  if (signs > 1 || dollars > 1 || (signs > 0 && parenthesised)) return undefined;
  // The digits are read into a number as they are checked: exact up to 15 of them, which covers every
  // figure but the rare huge or long one (read through a BigInt of its text instead).
  let value = 0;
  let digitCount = 0;
  let groupLength = 0;
  let grouped = false;
  let index = start;
  for (; index < end; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57) {
      groupLength += 1;
      digitCount += 1;
      value = value * 10 + (code - 48);
    } else if (code === 44 /* , */) {
      if (grouped ? groupLength !== 3 : groupLength < 1 || groupLength > 3) return undefined;
      grouped = true;
      groupLength = 0;
    } else {
      break;
    }
  }
  if (grouped && groupLength !== 3) return undefined;
  const integerEnd = index;
  let fractionLength = 0;
  if (index < end && text.charCodeAt(index) === 46 /* . */) {
    const fractionStart = index + 1;
    for (index = fractionStart; index < end; index += 1) {
      const code = text.charCodeAt(index);
      if (code < 48 || code > 57) return undefined;
      value = value * 10 + (code - 48);
    }
    fractionLength = end - fractionStart;
    digitCount += fractionLength;
  }
  if (index !== end || digitCount === 0) return undefined;
  if (digitCount <= EXACT_DIGITS && fractionLength <= SCALE) return decimalFromDigits(value, fractionLength, negative);
  const fraction = fractionLength === 0 ? '' : text.slice(end - fractionLength, end);
  let units = BigInt(text.slice(start, integerEnd).replaceAll(',', '') + fraction || '0');
  units = fractionLength <= SCALE ? units * pow10(SCALE - fractionLength) : divideRounded(units, pow10(fractionLength - SCALE));
  return Decimal.fromUnits(negative ? -units : units);
}
