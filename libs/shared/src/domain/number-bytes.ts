import { writeDigits } from './ascii-digits.js';
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

/**
 * A figure given by its exact count of units (`Decimal.exactUnits`), written as its Decimal's text
 * without making that Decimal (`writeDecimalText`): a packed row's figure read for its COPY line or its
 * key (a Decimal made at every such reading was 5% of what a 100,000-row import allocated). One is
 * filled anew for each row, so a writer writes it before the next row is read into it.
 */
export class ExactUnits {
  /** A whole number below 2^53 either way. */
  units = 0;

  /** The figure as a Decimal of its own, for a reader that keeps it past the row. */
  toDecimal(): Decimal {
    return Decimal.fromExactUnits(this.units);
  }
}

/** Bytes `writeDecimalText` takes for `value` at most. */
export function decimalTextRoom(value: Decimal | ExactUnits): number {
  return value instanceof ExactUnits || value.hasExactUnits ? DECIMAL_ROOM : value.toString().length;
}

/**
 * Writes `value` as `Decimal.toString` does (`-12.5`, `0.0001`, `3`: no trailing zeros), at `at`
 * (`Decimal.writeText`).
 */
export function writeDecimalText(buffer: Buffer, value: Decimal | ExactUnits, at: number): number {
  return value instanceof ExactUnits ? Decimal.writeExactUnitsText(value.units, buffer, at) : value.writeText(buffer, at);
}

/** Bytes `Decimal.writeUnitsText` takes for `value` at most. */
export function unitsTextRoom(value: Decimal): number {
  return value.hasExactUnits ? EXACT_UNITS_ROOM : value.rawUnits.toString().length;
}

const SMALL_INTEGER = 2 ** 31;
/** A count of units below 2^53 in digits, with a sign. */
const EXACT_UNITS_ROOM = 17;
/** Bytes a Decimal's text takes at most when its units are a safe integer: a sign, 6 digits, the point and SCALE places. */
const DECIMAL_ROOM = 8 + Decimal.SCALE;
