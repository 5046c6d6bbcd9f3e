import { Decimal } from '@app/shared/domain';
import { parseAmount, tryParseAmount, tryParsePercent } from './broker-figures.js';

describe('broker figures', () => {
  it.each([
    ['$1,234.56', '1234.56'],
    ['-$5.00', '-5'],
    ['$-5.00', '-5'],
    ['($5.00)', '-5'],
    ['($2,354.94)', '-2354.94'],
    ['1,234.5678', '1234.5678'],
    ['10,153.89', '10153.89'],
    ['12.5', '12.5'],
    ['$1234.56', '1234.56'],
    ['$0.00', '0'],
    ['+3', '3'],
    ['.5', '0.5'],
    ['  $181.81 ', '181.81'],
    ['$137,787.67', '137787.67'],
  ])('reads the broker figure %s as %s', (text, value) => {
    expect(parseAmount(text).toString()).toBe(value);
  });

  it.each(['-$12.3.4', '', '$', '12,34', '1,2345', '--5', '-$-5', '(-$5)', '5%', 'abc', '1e5', '$ 1 000'])(
    'refuses %p as money',
    (text) => {
      expect(tryParseAmount(text)).toBeUndefined();
      expect(() => parseAmount(text)).toThrow(RangeError);
    },
  );

  it('reads percentages with 2 or 12 decimals, keeping SCALE places', () => {
    expect(tryParsePercent('-3.20%')?.toString()).toBe('-3.2');
    expect(tryParsePercent('18.958245466048%')?.toString()).toBe('18.958245466');
    expect(tryParsePercent('-0.000000000051%')?.toString()).toBe('-0.0000000001');
    expect(tryParsePercent('12.5')?.toString()).toBe('12.5');
    expect(tryParsePercent('1.2.3%')).toBeUndefined();
  });

  it('reads figures exactly on both sides of 2^53 units (900719.9254740992), where a number stops holding them', () => {
    const figures: [string, string][] = [
      ['$900,719.9254740991', '900719.9254740991'],
      ['-$900,719.9254740991', '-900719.9254740991'],
      ['($900,719.9254740992)', '-900719.9254740992'],
      ['900719.9254740993', '900719.9254740993'],
      ['$1,000,000.01', '1000000.01'],
      ['-0.00', '0'],
      ['($0.00)', '0'],
    ];
    for (const [text, value] of figures) expect([text, tryParseAmount(text)?.toString()]).toEqual([text, value]);
  });

  it('reads any number of digits exactly, short (read as a number) or long (read as text), as Decimal does', () => {
    let seed = 7;
    const next = (below: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % below;
    };
    const digits = (count: number): string => Array.from({ length: count }, () => String(next(10))).join('');
    for (let round = 0; round < 5_000; round += 1) {
      const whole = digits(next(20));
      const fraction = digits(next(16));
      if (whole === '' && fraction === '') continue;
      const sign = next(2) === 0 ? '-' : '';
      const tail = fraction === '' ? '' : `.${fraction}`;
      const plain = `${sign}${whole}${tail}`;
      const dollars = `${sign}$${whole.replace(/\B(?=(\d{3})+$)/g, ',')}${tail}`;
      const expected = Decimal.parse(plain).toString();
      expect([plain, tryParseAmount(plain)?.toString()]).toEqual([plain, expected]);
      expect([dollars, tryParseAmount(dollars)?.toString()]).toEqual([dollars, expected]);
    }
  });

  describe('the figures of a holdings spreadsheet', () => {
    it.each([
      ['12.5', '12.5'],
      ['1,234.5678', '1234.5678'],
      ['$1,234.56', '1234.56'],
      [' -3 ', '-3'],
      ['.5', '0.5'],
    ])('reads %p as %p', (cell, value) => {
      expect(tryParseAmount(cell)?.toString()).toBe(value);
    });

    it.each(['abc', '', '1,23', '12.3.4', '1e5', '$', '--1'])('refuses %p', (cell) => {
      expect(tryParseAmount(cell)).toBeUndefined();
    });
  });
});
