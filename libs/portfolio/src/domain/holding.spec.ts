import { Decimal, percentage, productInCents } from '@app/shared/domain';
import { valueHolding } from './holding.js';
import { portfolioTotals } from './portfolio-totals.js';

const d = (text: string) => Decimal.of(text);

describe('holding valuation', () => {
  it('computes the contract example: cost, value, gain and return to the cent', () => {
    const v = valueHolding(d('10'), d('150.25'), d('175.50'));
    expect(v.totalCost.toFixed(2)).toBe('1502.50');
    expect(v.currentValue?.toFixed(2)).toBe('1755.00');
    expect(v.gainLoss?.toFixed(2)).toBe('252.50');
    expect(v.returnPercentage?.toFixed(2)).toBe('16.81'); // 252.5 / 1502.5 = 16.805…%
  });

  it('rounds each amount once, half away from zero, from the exact product', () => {
    // 3 × 10.005 = 30.015 exactly → 30.02; a float would give 30.014999… → 30.01.
    expect(productInCents(d('3'), d('10.005')).toFixed(2)).toBe('30.02');
    expect(productInCents(d('-3'), d('10.005')).toFixed(2)).toBe('-30.02');
    // 0.1 × 0.3 = 0.03 exactly
    expect(productInCents(d('0.1'), d('0.3')).toFixed(2)).toBe('0.03');
  });

  it('derives gain and return from the cent amounts, so the displayed fields add up', () => {
    const v = valueHolding(d('3'), d('10.001'), d('10.005'));
    expect(v.totalCost.toFixed(2)).toBe('30.00'); // 30.003
    expect(v.currentValue?.toFixed(2)).toBe('30.02'); // 30.015
    expect(v.gainLoss?.toFixed(2)).toBe('0.02');
    expect(v.currentValue!.sub(v.totalCost).eq(v.gainLoss!)).toBe(true);
  });

  it('reports losses as negative numbers', () => {
    const v = valueHolding(d('2.5'), d('100'), d('80.1234'));
    expect(v.currentValue?.toFixed(2)).toBe('200.31'); // 200.3085
    expect(v.gainLoss?.toFixed(2)).toBe('-49.69');
    expect(v.returnPercentage?.toFixed(2)).toBe('-19.88'); // -49.69 / 250 = -19.876%
  });

  it('leaves value, gain and return unknown without a price', () => {
    expect(valueHolding(d('1'), d('5'), null)).toEqual({ totalCost: d('5'), currentValue: null, gainLoss: null, returnPercentage: null });
  });

  it('gives a 0 % return for a holding that cost nothing', () => {
    expect(valueHolding(d('4'), d('0'), d('3')).returnPercentage?.toFixed(2)).toBe('0.00');
    expect(percentage(d('1'), Decimal.ZERO).isZero()).toBe(true);
  });

  it('sums a portfolio from the priced holdings’ cent amounts; an unpriced holding is left out and counted', () => {
    const totals = portfolioTotals([
      valueHolding(d('3'), d('10.001'), d('10.005')), // cost 30.00, value 30.02
      valueHolding(d('1'), d('0.005'), d('0.005')), // cost 0.01, value 0.01
      valueHolding(d('2'), d('50'), null), // unpriced: neither its cost (100.00) nor a value
    ]);
    expect(totals.totalCost.toFixed(2)).toBe('30.01');
    expect(totals.totalValue.toFixed(2)).toBe('30.03');
    expect(totals.totalGainLoss.toFixed(2)).toBe('0.02');
    expect(totals.totalReturnPct.toFixed(2)).toBe('0.07');
    expect(totals.holdingsCount).toBe(3);
    expect(totals.unpricedCount).toBe(1);
  });

  it('an empty portfolio is all zeros', () => {
    const totals = portfolioTotals([]);
    expect([totals.totalValue, totals.totalCost, totals.totalGainLoss, totals.totalReturnPct].map((x) => x.toFixed(2))).toEqual(['0.00', '0.00', '0.00', '0.00']);
  });
});
