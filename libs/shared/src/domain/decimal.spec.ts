import { Decimal, decimalPlaces, divideRounded } from './decimal.js';

const d = (text: string): Decimal => Decimal.parse(text);

describe('Decimal', () => {
  describe('parsing', () => {
    it('reads plain decimals, exponents and numbers exactly', () => {
      expect(d('-0.0001').toString()).toBe('-0.0001');
      expect(d('1e-7').toString()).toBe('0.0000001');
      expect(d('2.5E3').toString()).toBe('2500');
      expect(Decimal.of(0.1).add(Decimal.of(0.2)).toString()).toBe('0.3');
      expect(Decimal.of(12n).toString()).toBe('12');
      expect(() => Decimal.of(Number.NaN)).toThrow(RangeError);
      expect(() => d('1,000')).toThrow(RangeError);
    });

    it('reads the short common form (read without a regular expression) to the value of the same text in the long form', () => {
      // An exponent or a surrounding space sends the same number the long way.
      const texts = ['0', '-0', '5.', '.5', '-.5', '174.44', '-2354.94', '0.0000000001', '999999999999999', '99999999999999.9', '1.00000000000', '123456789012345.6', '12.34567890123'];
      // Around 2^53 units (900719.9254740992), where the units stop being exact in a number.
      texts.push('900719.9254740991', '-900719.9254740991', '900719.9254740992', '-900719.9254740993', '900720', '-900719.925474099');
      for (let seed = 1; seed < 400; seed += 1) {
        const digits = String((seed * 2_654_435_761) % 10 ** (1 + (seed % 15)));
        const point = seed % (digits.length + 1);
        texts.push(`${seed % 3 === 0 ? '-' : ''}${digits.slice(0, point)}.${digits.slice(point)}`, digits);
      }
      for (const text of texts) {
        expect([text, Decimal.tryParse(text)?.rawUnits]).toEqual([text, Decimal.tryParse(`${text}e0`)?.rawUnits ?? Decimal.tryParse(` ${text} `)?.rawUnits]);
      }
      for (const text of ['', '-', '.', '1.2.3', '--1', '1-', '0x10', '1_000', '١٢']) expect(Decimal.tryParse(text)).toBeUndefined();
    });
  });

  describe('arithmetic', () => {
    it('adds and subtracts exactly, never like floats', () => {
      let total = Decimal.ZERO;
      for (let index = 0; index < 1000; index += 1) {
        total = total.add('0.01');
      }
      expect(total.toString()).toBe('10');
      expect(d('5237.05').sub('5237.05').isZero()).toBe(true);
      expect(Decimal.sum([d('0.1'), d('0.2'), d('-0.3')]).isZero()).toBe(true);
    });

    it('multiplies and divides rounding half away from zero at the tenth place', () => {
      expect(d('1').div(3).toString()).toBe('0.3333333333');
      expect(d('2').div(3).toString()).toBe('0.6666666667');
      expect(d('-2').div(3).toString()).toBe('-0.6666666667');
      expect(d('0.00000000005').mul(1).toString()).toBe('0.0000000001');
      expect(d('-0.00000000005').mul(1).toString()).toBe('-0.0000000001');
      expect(d('0.00000000004').mul(1).toString()).toBe('0');
      expect(d('9153.20').mulDiv('16.5', '49.5').toString()).toBe('3051.0666666667');
      expect(() => d('1').div(0)).toThrow(RangeError);
    });

    it('compares, takes signs and extremes', () => {
      expect(d('1.5').cmp('1.50')).toBe(0);
      expect([d('-1').lt(0), d('2').gte('2'), d('2').gt('2.0000000001'), d('0').lte(0)]).toEqual([true, true, false, true]);
      expect([d('-3').abs().toString(), d('3').neg().toString(), d('-3').sign(), d('0').sign()]).toEqual(['3', '-3', -1, 0]);
      expect(Decimal.min(d('2'), d('-1'), d('5')).toString()).toBe('-1');
      expect(Decimal.max(d('2'), d('-1'), d('5')).toString()).toBe('5');
      expect([d('-0.1').isNegative(), d('0.1').isPositive(), d('0').isPositive()]).toEqual([true, true, false]);
    });

    it('gives what bigint arithmetic on the units gives, in one form for one value, across the ranges it keeps them in', () => {
      // Units are kept in two halves of 30 bits and below (up to 2^61 either way), computed in numbers
      // below 2^53, and as a bigint beyond 2^61: every boundary, and values of every size between.
      const units: bigint[] = [0n];
      for (const bits of [30n, 53n, 61n, 75n]) {
        for (const delta of [-1n, 0n, 1n]) units.push((1n << bits) + delta, -((1n << bits) + delta));
      }
      let seed = 7n;
      for (let index = 0; index < 120; index += 1) {
        seed = (seed * 6_364_136_223_846_793_005n + 1_442_695_040_888_963_407n) % (1n << 64n);
        const value = seed % (1n << BigInt(1 + (index % 72)));
        units.push(index % 2 === 0 ? value : -value);
      }
      const reference = (value: bigint): string => {
        const negative = value < 0n;
        const digits = (negative ? -value : value).toString().padStart(Decimal.SCALE + 1, '0');
        const text = `${digits.slice(0, -Decimal.SCALE)}.${digits.slice(-Decimal.SCALE)}`.replace(/\.?0+$/, '');
        return value === 0n ? '0' : negative ? `-${text}` : text;
      };
      const signOf = (value: bigint): number => (value === 0n ? 0 : value < 0n ? -1 : 1);
      for (const a of units) {
        const x = Decimal.fromUnits(a);
        expect([a, x.rawUnits, x.toString(), x.sign(), x.neg().rawUnits, x.abs().rawUnits]).toEqual([a, a, reference(a), signOf(a), -a, a < 0n ? -a : a]);
        const exact = x.exactUnits;
        expect([a, x.hasExactUnits]).toEqual([a, exact !== undefined]);
        if (exact !== undefined) expect([a, BigInt(exact)]).toEqual([a, a]);
        if (a < 1n << 53n && a > -(1n << 53n)) expect([a, exact]).toEqual([a, Number(a)]);
        expect([a, Decimal.parse(reference(a))]).toEqual([a, x]);
        for (const b of units.slice(0, 40)) {
          const y = Decimal.fromUnits(b);
          // `toEqual` compares the forms too: a sum made in numbers is the value `fromUnits` makes.
          expect([a, b, x.add(y), x.sub(y), x.cmp(y)]).toEqual([a, b, Decimal.fromUnits(a + b), Decimal.fromUnits(a - b), signOf(a - b)]);
          expect([a, b, Decimal.sum([x, y, x])]).toEqual([a, b, Decimal.fromUnits(a + b + a)]);
          expect([a, b, x.mul(y).rawUnits]).toEqual([a, b, divideRounded(a * b, 10n ** 10n)]);
        }
      }
    });

    it('multiplies and divides by whole numbers (shares, a hundred) as bigint arithmetic on the units does, at every size', () => {
      // Whole factors and divisors are worked in numbers while every step stays under 2^52: values on
      // both sides of that, of every size, and halves exactly (where rounding goes away from zero).
      const unit = 10n ** 10n;
      const wholes: bigint[] = [1n, 2n, 3n, 7n, 100n, 1_000n, 99_999n, 900_719n, (1n << 52n) / unit, (1n << 53n) / unit, 10n ** 9n];
      const units: bigint[] = [0n, 1n, 5n, unit / 2n, unit * 3n + unit / 2n, 7n * unit];
      for (const bits of [30n, 52n, 53n, 61n, 70n]) units.push((1n << bits) - 1n, 1n << bits, (1n << bits) + 1n);
      let seed = 11n;
      for (let index = 0; index < 80; index += 1) {
        seed = (seed * 6_364_136_223_846_793_005n + 1_442_695_040_888_963_407n) % (1n << 64n);
        units.push(seed % (1n << BigInt(4 + (index % 60))));
      }
      const signed = (values: bigint[]): bigint[] => values.flatMap((value) => [value, -value]);
      for (const a of signed(units)) {
        const x = Decimal.fromUnits(a);
        for (const places of [0, 2, 4, 9]) {
          const step = 10n ** BigInt(10 - places);
          expect([a, places, x.round(places)]).toEqual([a, places, Decimal.fromUnits(divideRounded(a, step) * step)]);
        }
        for (const whole of signed(wholes)) {
          const w = Decimal.fromUnits(whole * unit);
          // `toEqual` compares the forms too: one made in numbers is the value `fromUnits` makes.
          expect([a, whole, x.mul(w), w.mul(x), x.div(w)]).toEqual([a, whole, Decimal.fromUnits(a * whole), Decimal.fromUnits(a * whole), Decimal.fromUnits(divideRounded(a, whole))]);
          for (const other of [1n, 3n, 100n, 999_983n, -7n]) {
            const o = Decimal.fromUnits(other * unit);
            expect([a, whole, other, x.mulDiv(w, o), x.mulDiv(o, w)]).toEqual([a, whole, other, Decimal.fromUnits(divideRounded(a * whole, other)), Decimal.fromUnits(divideRounded(a * other, whole))]);
          }
        }
      }
      expect(() => d('1').div(d('0'))).toThrow(RangeError);
      expect(() => d('1').mulDiv(d('2'), d('0'))).toThrow(RangeError);
      expect([d('-0.5').div(1).sign(), d('0').mulDiv(-3, 7), d('-0.00000000005').div(-1).toString()]).toEqual([-1, Decimal.ZERO, '0.0000000001']);
    });
  });

  describe('rounding for display', () => {
    it.each([
      ['2.345', 2, '2.35'],
      ['-2.345', 2, '-2.35'],
      ['2.3449999999', 2, '2.34'],
      ['0.005', 2, '0.01'],
      ['-0.005', 2, '-0.01'],
      ['-0.004', 2, '0.00'],
      ['184.913131', 4, '184.9131'],
      ['1.5', 0, '2'],
      ['-1.5', 0, '-2'],
      ['7', 3, '7.000'],
      ['0.1', 12, '0.100000000000'],
    ])('%s to %i places is %s', (value, places, shown) => {
      expect(d(value).toFixed(places)).toBe(shown);
      expect(d(value).round(places).toNumber()).toBe(Number(shown));
      expect(d(value).toNumber(places)).toBe(Number(shown));
    });

    it('converts to the number its rounded text reads as, within and beyond what a number holds exactly', () => {
      const units: bigint[] = [0n, 1n, -1n, 5n, -5n, 4_999_999_999n, 5_000_000_000n, -5_000_000_000n, 2n ** 53n - 1n, -(2n ** 53n - 1n), 2n ** 53n, 2n ** 60n + 12_345n];
      for (let seed = 1n; seed < 3_000n; seed += 1n) {
        const value = (seed * 2_654_435_761n * seed) % 10n ** (1n + (seed % 17n));
        units.push(seed % 2n === 0n ? value : -value, value - (value % 10n ** (seed % 10n)) + 5n * 10n ** ((seed % 10n) - 1n > 0n ? (seed % 10n) - 1n : 0n));
      }
      for (const each of units) {
        const value = Decimal.fromUnits(each);
        for (let places = 0; places <= Decimal.SCALE + 1; places += 1) {
          expect([each, places, value.toNumber(places)]).toEqual([each, places, Number(value.toFixed(places))]);
        }
      }
      expect(Object.is(Decimal.fromUnits(-4_999_999n).toNumber(2), 0)).toBe(true);
    });

    it('never shows -0', () => {
      expect(Object.is(d('-0.001').toNumber(2), 0)).toBe(true);
      expect(d('-0.001').round(2).toString()).toBe('0');
    });

    it('serialises to its exact string', () => {
      expect(JSON.stringify({ amount: d('-12.50') })).toBe('{"amount":"-12.5"}');
      expect(d('-12.50').rawUnits).toBe(-125_000_000_000n);
      expect(Decimal.fromUnits(1n).toString()).toBe('0.0000000001');
    });
  });

  it('rounds integer division half away from zero, and counts written decimals', () => {
    expect([divideRounded(5n, 2n), divideRounded(-5n, 2n), divideRounded(4n, 3n), divideRounded(-7n, -2n)]).toEqual([3n, -3n, 1n, 4n]);
    expect(() => divideRounded(1n, 0n)).toThrow(RangeError);
    expect([decimalPlaces(Decimal.parse('12.5')), decimalPlaces(Decimal.parse('3')), decimalPlaces(Decimal.parse('0.0001'))]).toEqual([1, 0, 4]);
    // Within 2^53 units (counted in a number) and beyond them (counted in the text).
    const places = ['0', '-100', '-12.50', '0.0000000001', '-900719.9254740991', '900719.925474099', '12345678901234567.5', '-98765432109876543210', '1e-10'];
    expect(places.map((text) => decimalPlaces(Decimal.parse(text)))).toEqual([0, 0, 1, 10, 10, 9, 1, 0, 10]);
    for (let written = 0; written <= 10; written += 1) {
      for (const digits of [7n, -30_001n, 1_234_567n, 90_071_992n]) {
        expect([String(digits), written, decimalPlaces(Decimal.fromUnits(digits * 10n ** BigInt(10 - written)))]).toEqual([String(digits), written, written]);
      }
    }
  });
});
