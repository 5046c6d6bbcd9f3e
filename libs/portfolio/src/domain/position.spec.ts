import { Decimal } from '@app/shared/domain';
import { averageCostOf, positionsFromLots, valuePosition, weightsOf, type ImportedLot } from './position.js';

const d = (text: string) => Decimal.parse(text);
const lot = (symbol: string, side: 'long' | 'short', openDate: string, shares: string, cost: string, source: 'broker' | 'fifo' = 'broker'): ImportedLot => ({
  accountNumber: 'A-1',
  symbol,
  side,
  openDate,
  shares: d(shares),
  cost: d(cost),
  price: null,
  source,
});
const quote = (price: string, change: string | null = null) => ({
  symbol: 'X',
  currentPrice: d(price),
  change: change === null ? null : d(change),
  percentChange: null,
  high: null,
  low: null,
  open: null,
  previousClose: null,
  quotedAt: null,
});

describe('positions from open lots', () => {
  it('sums lots per symbol and side; a short is negative shares and a negative cost basis (its proceeds)', () => {
    const positions = positionsFromLots([
      lot('NVDA', 'long', '2024-03-05', '10', '1000.05'),
      lot('AAPL', 'long', '2024-01-02', '1.5', '300', 'fifo'),
      lot('NVDA', 'long', '2024-02-01', '5', '450'),
      lot('TSLA', 'short', '2024-04-01', '2', '360.10'),
    ]);
    expect(positions.map((p) => [p.symbol, p.side, p.shares.toString(), p.costBasis.toString(), p.lots, p.firstOpened, p.lastOpened, p.source])).toEqual([
      ['AAPL', 'long', '1.5', '300', 1, '2024-01-02', '2024-01-02', 'fifo'],
      ['NVDA', 'long', '15', '1450.05', 2, '2024-02-01', '2024-03-05', 'broker'],
      ['TSLA', 'short', '-2', '-360.1', 1, '2024-04-01', '2024-04-01', 'broker'],
    ]);
    expect(averageCostOf(positions[1]).toString()).toBe('96.67');
    expect(averageCostOf(positions[2]).toString()).toBe('180.05');
  });

  it('values a long and a short: market value to the cent, unrealized = value − cost basis, the day change', () => {
    const [long, short] = positionsFromLots([lot('A', 'long', '2024-01-02', '3', '100.00'), lot('B', 'short', '2024-01-02', '2', '360.10')]);
    expect(valuePosition(long, quote('33.335', '0.505'))).toMatchObject({
      currentValue: d('100.01'),
      gainLoss: d('0.01'),
      returnPercentage: d('0.01'),
      dayChange: d('1.52'),
    });
    // Shorted at 180.05, now 170: a gain of 2 × 10.05.
    expect(valuePosition(short, quote('170'))).toMatchObject({ totalCost: d('-360.1'), currentValue: d('-340'), gainLoss: d('20.1'), returnPercentage: d('5.58') });
    expect(valuePosition(long, null)).toMatchObject({ totalCost: d('100'), currentValue: null, gainLoss: null, dayChange: null });
  });

  it('weighs values by their size in the gross total, unknown values not at all', () => {
    expect(weightsOf([d('300'), null, d('-100')]).map((w) => w?.toString() ?? null)).toEqual(['75', null, '25']);
    expect(weightsOf([null])).toEqual([null]);
  });
});
