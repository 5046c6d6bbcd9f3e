import { Decimal } from '@app/shared/domain';
import { summariseSymbols, type SymbolAccountTotals } from './symbol-summary.js';

const none: SymbolAccountTotals = {
  symbol: '',
  companyName: null,
  tradeCount: 0,
  winningTrades: 0,
  tradingProfitLoss: Decimal.ZERO,
  minProfitLoss: null,
  maxProfitLoss: null,
  sumReturnPercentage: Decimal.ZERO,
  minReturnPercentage: null,
  maxReturnPercentage: null,
  sumHoldingDays: 0,
  totalVolume: Decimal.ZERO,
  totalCostBasis: Decimal.ZERO,
  firstTradeDate: null,
  lastTradeDate: null,
  firstOpenDate: null,
  dividendCount: 0,
  dividends: Decimal.ZERO,
  firstDividendDate: null,
  lastDividendDate: null,
  currentShares: Decimal.ZERO,
};
const d = (text: string) => Decimal.parse(text);

describe('symbol summaries', () => {
  it('combine a symbol’s accounts exactly, then take means', () => {
    const [summary] = summariseSymbols([
      {
        ...none,
        symbol: 'NVDA',
        companyName: 'NVIDIA CORP',
        tradeCount: 2,
        winningTrades: 1,
        tradingProfitLoss: d('100'),
        minProfitLoss: d('-50'),
        maxProfitLoss: d('150'),
        sumReturnPercentage: d('10'),
        minReturnPercentage: d('-5'),
        maxReturnPercentage: d('15'),
        sumHoldingDays: 10,
        totalVolume: d('20'),
        totalCostBasis: d('1000'),
        firstTradeDate: '2024-05-08',
        lastTradeDate: '2024-06-14',
        firstOpenDate: '2024-03-07',
        currentShares: d('5'),
      },
      {
        ...none,
        symbol: 'NVDA',
        tradeCount: 1,
        tradingProfitLoss: d('-200'),
        minProfitLoss: d('-200'),
        maxProfitLoss: d('-200'),
        sumReturnPercentage: d('-20'),
        minReturnPercentage: d('-20'),
        maxReturnPercentage: d('-20'),
        sumHoldingDays: 1,
        totalVolume: d('1.5'),
        totalCostBasis: d('1000'),
        firstTradeDate: '2024-04-01',
        lastTradeDate: '2024-04-01',
        firstOpenDate: '2024-03-31',
        dividendCount: 2,
        dividends: d('5.12'),
        firstDividendDate: '2024-04-02',
        lastDividendDate: '2024-04-15',
        currentShares: d('-5'),
      },
    ]);
    expect(summary).toMatchObject({ symbol: 'NVDA', companyName: 'NVIDIA CORP', totalTrades: 3, winningTrades: 1, dividendCount: 2 });
    expect(summary.winRate.toNumber(2)).toBe(33.33);
    expect(summary.avgProfitLoss.toString()).toBe('-33.3333333333');
    expect(summary.avgReturnPercentage.toString()).toBe('-3.3333333333');
    expect(summary.avgHoldingDays.toNumber(2)).toBe(3.67);
    expect([summary.minProfitLoss?.toString(), summary.maxProfitLoss?.toString()]).toEqual(['-200', '150']);
    expect([summary.minReturnPercentage?.toString(), summary.maxReturnPercentage?.toString()]).toEqual(['-20', '15']);
    expect([summary.firstTradeDate, summary.lastTradeDate, summary.firstOpenDate]).toEqual(['2024-04-01', '2024-06-14', '2024-03-07']);
    expect(summary.totalReturn.toString()).toBe('-94.88');
    expect(summary.currentShares.isZero()).toBe(true);
    expect(summary.avgDividendAmount.toString()).toBe('2.56');
  });

  it('a symbol with only dividends is listed, with zeros and no extremes', () => {
    const [summary] = summariseSymbols([{ ...none, symbol: 'KO', dividendCount: 3, dividends: d('10'), firstDividendDate: '2024-01-02', lastDividendDate: '2024-07-01' }]);
    expect(summary).toMatchObject({ symbol: 'KO', totalTrades: 0, minProfitLoss: null, maxReturnPercentage: null, firstTradeDate: null });
    expect(summary.winRate.isZero()).toBe(true);
    expect(summary.avgProfitLoss.isZero()).toBe(true);
    expect(summary.avgHoldingDays.isZero()).toBe(true);
    expect(summary.avgDividendAmount.toString()).toBe('3.3333333333');
    expect(summary.totalReturn.toString()).toBe('10');
  });

  it('lists symbols with trades, dividends or shares held, by symbol; a position closed without a trade is not listed', () => {
    const symbols = summariseSymbols([
      { ...none, symbol: 'SNOW', currentShares: d('-29') },
      { ...none, symbol: 'AAPL', tradeCount: 1, winningTrades: 1 },
      { ...none, symbol: 'GONE', currentShares: Decimal.ZERO },
      { ...none, symbol: 'KO', dividendCount: 1, dividends: d('-2.53') },
    ]);
    expect(symbols.map((summary) => summary.symbol)).toEqual(['AAPL', 'KO', 'SNOW']);
  });

  it('no data: no summaries', () => {
    expect(summariseSymbols([])).toEqual([]);
  });
});
