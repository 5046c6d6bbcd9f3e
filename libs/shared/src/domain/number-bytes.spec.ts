import { Decimal } from './decimal.js';
import { decimalTextRoom, ExactUnits, isSmallInteger, SMALL_INTEGER_ROOM, unitsTextRoom, writeDecimalText, writeSmallInteger } from './number-bytes.js';

/** What a writer put in a buffer from `at` on, as text, with the bytes it took. */
function written(write: (buffer: Buffer, at: number) => number): { text: string; bytes: number } {
  const buffer = Buffer.alloc(64, 0x7e);
  const end = write(buffer, 3);
  return { text: buffer.toString('latin1', 3, end), bytes: end - 3 };
}

describe('figures written as bytes', () => {
  it('writes a decimal as Decimal.toString does, in no more than its room (units of 1 to 24 digits, trailing zeros or not, either sign, just below a whole number)', () => {
    // Every length of digits with every count of trailing zeros, the digits from a fixed sequence
    // (Park and Miller's: its products stay below 2^53, so every digit comes up).
    let state = 2026;
    const digit = () => (state = (state * 48_271) % 2_147_483_647) % 10;
    const values = ['0', '0.0000000001', '0.00001', '0.0001', '0.1', '12.5', '100', '900719.9254740991', '900719.9254740992', '123456789012345678901.0000000001']
      // Just below a whole number: as close as a division of the units by 10^10 in doubles comes to it.
      .concat(['900718.9999999999', '900719', '899999.9999999999', '524287.9999999999', '1.9999999999']).map((text) =>
      Decimal.parse(text),
    );
    for (let digits = 1; digits <= 24; digits += 1) {
      for (let zeros = 0; zeros < 12; zeros += 1) {
        let units = 0n;
        for (let index = 0; index < digits; index += 1) units = units * 10n + BigInt(digit());
        values.push(Decimal.fromUnits(units * 10n ** BigInt(zeros)));
      }
    }
    const units = new ExactUnits();
    for (const value of [...values, ...values.map((each) => each.neg())]) {
      const { text, bytes } = written((buffer, at) => writeDecimalText(buffer, value, at));
      expect(text).toBe(value.toString());
      expect(bytes).toBeLessThanOrEqual(decimalTextRoom(value));
      // Given by its exact units, without the Decimal: the same text.
      if (value.exactUnits === undefined) continue;
      units.units = value.exactUnits;
      const byUnits = written((buffer, at) => writeDecimalText(buffer, units, at));
      expect(byUnits.text).toBe(value.toString());
      expect(byUnits.bytes).toBeLessThanOrEqual(decimalTextRoom(units));
    }
  });

  it('writes a count of units as rawUnits gives it, in no more than its room (either sign, every length of digits, around 10^8 and 2^53)', () => {
    let state = 1975;
    const digit = () => (state = (state * 48_271) % 2_147_483_647) % 10;
    const units = [0n, 1n, 9n, 99_999_999n, 100_000_000n, 100_000_001n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 61n, 10n ** 40n + 7n];
    // One short of a multiple of 10^8 near 2^53, where the quotient by 10^8 comes closest to rounding up.
    for (let multiple = 90_071_990n; multiple > 90_071_900n; multiple -= 1n) units.push(multiple * 100_000_000n - 1n, multiple * 100_000_000n);
    for (let digits = 1; digits <= 20; digits += 1) {
      let value = 0n;
      for (let index = 0; index < digits; index += 1) value = value * 10n + BigInt(digit());
      units.push(value);
    }
    for (const count of [...units, ...units.map((each) => -each)]) {
      const value = Decimal.fromUnits(count);
      const { text, bytes } = written((buffer, at) => value.writeUnitsText(buffer, at));
      expect(text).toBe(count.toString());
      expect(bytes).toBeLessThanOrEqual(unitsTextRoom(value));
    }
  });

  it('writes a small integer as String does, in no more than its room; larger ones and fractions are not small', () => {
    for (const value of [0, -0, 7, -42, 10, 99, 100, 1_000_000, 2 ** 31 - 1, -(2 ** 31) + 1]) {
      expect(isSmallInteger(value)).toBe(true);
      const { text, bytes } = written((buffer, at) => writeSmallInteger(buffer, value, at));
      expect(text).toBe(String(value));
      expect(bytes).toBeLessThanOrEqual(SMALL_INTEGER_ROOM);
    }
    for (const value of [2 ** 31, -(2 ** 31), 99_999_999_999, Number.MAX_SAFE_INTEGER, 1.5, -0.25, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(isSmallInteger(value)).toBe(false);
    }
  });
});
