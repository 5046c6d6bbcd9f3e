import { Decimal } from './decimal.js';

/**
 * Figures written straight into a buffer as the text their strings hold, without making the strings:
 * the COPY text of an import's rows (millions of figures at a million rows, each string made only to
 * be copied) and the content its natural keys are digests of. Each writer answers where it ended; the
 * caller sees to the room (`decimalTextRoom`, `SMALL_INTEGER_ROOM`).
 */

/** Bytes `writeSmallInteger` takes at most: a sign and 10 digits. */
export const SMALL_INTEGER_ROOM = 11;

/** Integers `writeSmallInteger` writes: below 2^31 either way. */
export function isSmallInteger(value: number): boolean {
  return Number.isInteger(value) && value < SMALL_INTEGER && value > -SMALL_INTEGER;
}

/** Writes a small integer (`isSmallInteger`) as `String` does, at `at`. */
export function writeSmallInteger(buffer: Buffer, value: number, at: number): number {
  if (value < 0) {
    buffer[at] = 0x2d; /* - */
    return writeDigits(buffer, -value, at + 1);
  }
  return writeDigits(buffer, value, at);
}

/** Bytes `writeDecimalText` takes for `value` at most. */
export function decimalTextRoom(value: Decimal): number {
  return value.exactUnits !== undefined ? DECIMAL_ROOM : value.toString().length;
}

/**
 * Writes `value` as `Decimal.toString` does (`-12.5`, `0.0001`, `3`: no trailing zeros), at `at`. Within
 * a number's exact range (every broker figure and nearly every sum) it is written from its units with
 * small-integer arithmetic: a double's remainder is a call in V8, and a first version that used it
 * for every digit was slower than making the string.
 */
export function writeDecimalText(buffer: Buffer, value: Decimal, at: number): number {
  let rest = value.exactUnits;
  if (rest === undefined) return at + buffer.write(value.toString(), at, 'latin1');
  if (rest < 0) {
    buffer[at++] = 0x2d; /* - */
    rest = -rest;
  }
  // The whole part is below 10^6 (units below 2^53); the SCALE places are written as two halves below 10^5.
  const fraction = rest % UNIT;
  at = writeDigits(buffer, (rest - fraction) / UNIT, at);
  if (fraction === 0) return at;
  const high = Math.floor(fraction / HALF_UNIT);
  const low = fraction - high * HALF_UNIT;
  let last = low === 0 ? high : low;
  let width = HALF_PLACES;
  while (last % 10 === 0) {
    last /= 10;
    width -= 1;
  }
  buffer[at++] = 0x2e; /* . */
  if (low !== 0) at = writeFixed(buffer, high, HALF_PLACES, at);
  return writeFixed(buffer, last, width, at);
}

const SMALL_INTEGER = 2 ** 31;
/** Bytes a Decimal's text takes at most when its units are a safe integer: a sign, 6 digits, the point and SCALE places. */
const DECIMAL_ROOM = 8 + Decimal.SCALE;
/** 10^SCALE: one in units. */
const UNIT = 10 ** Decimal.SCALE;
/** A Decimal's places are written as two halves of this many, each below 2^31. */
const HALF_PLACES = Decimal.SCALE / 2;
const HALF_UNIT = 10 ** HALF_PLACES;

/** Writes the digits of `value` (0 ≤ value < 2^31) at `at`. */
function writeDigits(buffer: Buffer, value: number, at: number): number {
  let width = 1;
  for (let bound = 10; value >= bound && width < 10; bound *= 10) width += 1;
  return writeFixed(buffer, value, width, at);
}

/** Writes `value` (0 ≤ value < 2^31) as exactly `width` digits, zeros in front, at `at`. */
function writeFixed(buffer: Buffer, value: number, width: number, at: number): number {
  let rest = value;
  for (let position = at + width - 1; position >= at; position -= 1) {
    const next = (rest / 10) | 0;
    buffer[position] = 0x30 + rest - next * 10;
    rest = next;
  }
  return at + width;
}
