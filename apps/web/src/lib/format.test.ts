import { describe, expect, it } from 'vitest';
import {
  distinctDateTimes,
  formatBytes,
  formatCompactMoney,
  formatDate,
  formatDateTime,
  formatLongDate,
  formatMoney,
  formatMonth,
  formatPercent,
  formatPrice,
  priceDecimals,
  formatShares,
  formatShortMonth,
  formatSignedMoney,
  formatSignedPercent,
  tone,
} from './format';

describe('money', () => {
  it('writes dollars with separators, two decimals and a real minus sign', () => {
    expect(formatMoney(1234.5)).toBe('$1,234.50');
    expect(formatMoney(-5661.53)).toBe('−$5,661.53');
    expect(formatMoney(0)).toBe('$0.00');
  });

  it('signs profit and loss, but not zero', () => {
    expect(formatSignedMoney(621.89)).toBe('+$621.89');
    expect(formatSignedMoney(-2422.53)).toBe('−$2,422.53');
    expect(formatSignedMoney(0)).toBe('$0.00');
  });

  it('shows a dash for a missing value', () => {
    expect(formatMoney(null)).toBe('—');
    expect(formatSignedMoney(undefined)).toBe('—');
    expect(formatPercent(Number.NaN)).toBe('—');
  });

  it('keeps prices to four decimals and at least two', () => {
    expect(formatPrice(177.0779)).toBe('$177.0779');
    expect(formatPrice(1)).toBe('$1.00');
    // A column's decimals: 4 when any price in it needs them, else 2; each price then shows as many.
    expect(priceDecimals([44.273, 47.5598, 73.72])).toBe(4);
    expect(priceDecimals([73.72, 1, null])).toBe(2);
    expect([44.273, 73.72].map((price) => formatPrice(price, 4))).toEqual(['$44.2730', '$73.7200']);
    expect(formatPrice(73.7, 2)).toBe('$73.70');
  });

  it('shortens for small spaces: whole dollars below a thousand, then K and M', () => {
    expect(formatCompactMoney(22.86)).toBe('+$23');
    expect(formatCompactMoney(-495.53)).toBe('−$496');
    expect(formatCompactMoney(1059.63)).toBe('+$1.1K');
    expect(formatCompactMoney(-3290.99)).toBe('−$3.3K');
    expect(formatCompactMoney(2_500_000)).toBe('+$2.5M');
    expect(formatCompactMoney(0)).toBe('$0');
  });
});

describe('percentages (the API sends percent numbers)', () => {
  it('42.86 is 42.86%', () => {
    expect(formatPercent(42.86)).toBe('42.86%');
    expect(formatPercent(100)).toBe('100%');
    expect(formatPercent(0)).toBe('0%');
  });

  it('returns carry a sign and two decimals', () => {
    expect(formatSignedPercent(3.5)).toBe('+3.50%');
    expect(formatSignedPercent(-18.08)).toBe('−18.08%');
    expect(formatSignedPercent(0)).toBe('0.00%');
  });
});

describe('shares and sizes', () => {
  it('keeps fractional shares', () => {
    expect(formatShares(3892.85)).toBe('3,892.85');
    expect(formatShares(0.123456)).toBe('0.123456');
    expect(formatShares(-19)).toBe('−19');
  });

  it('file sizes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(6705)).toBe('6.5 KB');
    expect(formatBytes(52428800)).toBe('50 MB');
  });
});

describe('dates are calendar dates, never shifted by the time zone', () => {
  it('formats days and months', () => {
    expect(formatDate('2024-05-01')).toBe('May 1, 2024');
    expect(formatDate(null)).toBe('—');
    expect(formatLongDate('2024-05-28')).toBe('Tuesday, May 28, 2024');
    expect(formatMonth('2024-06')).toBe('June 2024');
    expect(formatShortMonth('2024-03')).toBe('Mar 2024');
  });
});

describe('times of day', () => {
  it('writes seconds only for the times that would read alike to the minute', () => {
    const [first, second, later] = ['2026-12-07T12:51:07Z', '2026-12-07T12:51:42Z', '2026-12-07T14:05:00Z'];
    const written = distinctDateTimes([first, second, later]);
    expect(written.get(first)).not.toBe(written.get(second));
    expect([written.get(first), written.get(second)]).toEqual([expect.stringMatching(/\d:\d\d:07/), expect.stringMatching(/\d:\d\d:42/)]);
    expect(written.get(later)).toBe(formatDateTime(later));
    expect(written.get(later)).not.toMatch(/\d:\d\d:\d\d/);
  });

  it('numbers, in the order given, the times alike even to the second', () => {
    const [first, second, third] = ['2026-12-07T12:51:07.120Z', '2026-12-07T12:51:07.480Z', '2026-12-07T12:51:09Z'];
    const written = distinctDateTimes([first, second, third]);
    expect([written.get(first), written.get(second), written.get(third)]).toEqual([
      expect.stringMatching(/\d:\d\d:07.* \(1\)$/),
      expect.stringMatching(/\d:\d\d:07.* \(2\)$/),
      expect.stringMatching(/\d:\d\d:09 [AP]M$/),
    ]);
  });
});

describe('tone', () => {
  it('colours gains, losses and nothing', () => {
    expect(tone(1)).toBe('gain');
    expect(tone(-0.01)).toBe('loss');
    expect(tone(0)).toBe('flat');
    expect(tone(null)).toBe('flat');
  });
});
