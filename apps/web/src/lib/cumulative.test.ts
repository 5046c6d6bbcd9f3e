import { describe, expect, it } from 'vitest';
import type { Dividend, Trade } from '../api/types';
import { cumulativeSeries } from './cumulative';

const trade = (sell_date: string, total_profit_loss: number, close_date = sell_date): Trade => ({
  symbol: 'NVDA',
  side: 'long',
  source: 'fifo',
  holding_days: 1,
  wash_sale: null,
  buy_date: '2024-01-02',
  sell_date,
  close_date,
  buy_price: 1,
  sell_price: 1,
  volume: 1,
  total_profit_loss,
  return_percentage: 0,
  trade_result: 'Win',
});
const dividend = (transaction_date: string, amount: number): Dividend => ({ transaction_date, symbol: 'NVDA', action: 'Cash Dividend', amount });

describe('cumulativeSeries', () => {
  it('adds up trades by closing date and dividends by payment date, oldest first', () => {
    const series = cumulativeSeries([trade('2024-05-08', 62.71), trade('2024-05-08', 525.88), trade('2024-06-14', -1310.03)], [dividend('2024-04-02', 0.8), dividend('2024-04-15', 4.32)]);
    expect(series).toEqual([
      { date: '2024-04-02', trading: 0, total: 0.8 },
      { date: '2024-04-15', trading: 0, total: 5.12 },
      { date: '2024-05-08', trading: 588.59, total: 593.71 },
      { date: '2024-06-14', trading: -721.44, total: -716.32 },
    ]);
  });

  it('does not drift on many cents', () => {
    const series = cumulativeSeries(Array.from({ length: 10 }, () => trade('2024-01-03', 0.1)), []);
    expect(series).toEqual([{ date: '2024-01-03', trading: 1, total: 1 }]);
  });

  it('counts a short on its cover date', () => {
    expect(cumulativeSeries([trade('2024-03-14', 114.72, '2024-04-01')], [])[0].date).toBe('2024-04-01');
  });

  it('is empty without trades and dividends', () => {
    expect(cumulativeSeries([], [])).toEqual([]);
  });
});
