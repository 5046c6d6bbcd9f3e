/** Digits written as ASCII bytes, for figures written without their strings (number-bytes.ts, `Decimal.writeText`). */

/** Writes the digits of `value` (0 ≤ value < 2^31) at `at`, answering where they end. */
export function writeDigits(bytes: Uint8Array, value: number, at: number): number {
  let width = 1;
  for (let bound = 10; value >= bound && width < 10; bound *= 10) width += 1;
  return writeFixed(bytes, value, width, at);
}

/** Writes `value` (0 ≤ value < 2^31) as exactly `width` digits, zeros in front, at `at`. */
export function writeFixed(bytes: Uint8Array, value: number, width: number, at: number): number {
  let rest = value;
  for (let position = at + width - 1; position >= at; position -= 1) {
    const next = (rest / 10) | 0;
    bytes[position] = 0x30 + rest - next * 10;
    rest = next;
  }
  return at + width;
}
