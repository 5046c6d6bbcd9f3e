import { readFileSync } from 'node:fs';
import path from 'node:path';
import { matchTrades } from '../hybrid-matcher.js';
import { ImportFileError } from '../import.errors.js';
import { unknownActionWarnings } from '../unknown-actions.js';
import { fidelityAction } from './fidelity-history.format.js';
import { parseTransactionsFile } from './format-registry.js';

const fixture = (...parts: string[]) => readFileSync(path.resolve(process.cwd(), 'test/fixtures', ...parts));
const HEADER = 'Run Date,Action,Symbol,Description,Type,Quantity,Price ($),Commission ($),Fees ($),Accrued Interest ($),Amount ($),Cash Balance ($),Settlement Date';
const refusal = (rows: string[]): string => {
  try {
    parseTransactionsFile('history.csv', [HEADER, ...rows].join('\n'));
  } catch (error) {
    if (error instanceof ImportFileError) return error.message;
    throw error;
  }
  throw new Error('accepted');
};

describe('Fidelity Accounts History (docs/formats.md)', () => {
  it('reads the example: blank lines before the header, padded cells, negative sale quantities, the closing disclaimer', () => {
    const file = parseTransactionsFile('history.csv', fixture('fidelity', 'history.csv'));
    expect(file.format.id).toBe('fidelity-history');
    expect(file.dataRows).toBe(11);
    const sale = file.transactions.find((t) => t.date === '2024-04-10')!;
    expect(sale).toMatchObject({ action: 'Sell', kind: 'sell', symbol: 'AAPL', description: 'APPLE INC' });
    expect([sale.quantity?.toString(), sale.price?.toString(), sale.fees?.toString(), sale.amount?.toString()]).toEqual(['12', '170', '0.05', '2039.95']);
    expect(file.transactions.map((t) => t.kind)).toEqual(['sell', 'stock_split', 'buy', 'sell', 'other', 'buy', 'other', 'dividend', 'other', 'buy', 'other']);
    expect(file.transactions.find((t) => t.date === '2024-01-31')?.symbol).toBe('SPAXX');
  });

  it('gives the same trades, dividends and open lots as the same account exported by Robinhood', () => {
    const fidelity = matchTrades(parseTransactionsFile('history.csv', fixture('fidelity', 'history.csv')).transactions, []);
    const robinhood = matchTrades(parseTransactionsFile('activity.csv', fixture('robinhood', 'activity.csv')).transactions, []);
    const trades = (result: typeof fidelity) =>
      result.trades.map((t) => [t.symbol, t.side, t.openDate, t.closeDate, t.volume.toString(), t.costBasis.toFixed(2), t.proceeds.toFixed(2), t.totalProfitLoss.toFixed(2)]);
    expect(trades(fidelity)).toEqual(trades(robinhood));
    expect(fidelity.trades).toHaveLength(3);
    expect(fidelity.dividends.map((d) => [d.symbol, d.amount.toString()])).toEqual(robinhood.dividends.map((d) => [d.symbol, d.amount.toString()]));
    const lots = (result: typeof fidelity) => result.openLots.map((lot) => [lot.symbol, lot.openDate, lot.quantity.toString(), lot.amount.toFixed(2)]);
    expect(lots(fidelity)).toEqual(lots(robinhood));
  });

  it('maps the Action sentences, reports what it keeps but counts toward nothing, and keeps unknown sentences as written', () => {
    expect(fidelityAction('YOU BOUGHT APPLE INC (AAPL) (Cash)', 'AAPL', true, true)).toBe('Buy');
    expect(fidelityAction('REINVESTMENT FIDELITY 500 INDEX (FXAIX) (Cash)', 'FXAIX', true, true)).toBe('Reinvest Shares');
    expect(fidelityAction('YOU SOLD SHORT TESLA INC (TSLA) (Margin)', 'TSLA', true, true)).toBe('Sell Short');
    expect(fidelityAction('YOU BOUGHT TO COVER TESLA INC (TSLA) (Margin)', 'TSLA', true, true)).toBe('Buy to Cover');
    expect(fidelityAction('LONG-TERM CAP GAIN VANGUARD (VTI) (Cash)', 'VTI', false, true)).toBe('Long Term Cap Gain');
    expect(fidelityAction('DISTRIBUTION NVIDIA CORPORATION (NVDA) (Cash)', 'NVDA', true, false)).toBe('Stock Split');
    expect(fidelityAction('FOREIGN TAX PAID NOVO (NVO) (Cash)', 'NVO', false, true)).toBe('FOREIGN TAX PAID NOVO (NVO) (Cash)');
    const warnings = unknownActionWarnings('history.csv', parseTransactionsFile('history.csv', fixture('fidelity', 'history.csv')).transactions);
    expect(warnings).toHaveLength(4);
    expect(warnings[0]).toContain("'Fidelity option activity: YOU SOLD CLOSING TRANSACTION CALL");
    expect(warnings.at(-1)).toContain("'Electronic Funds Transfer Received (Cash)' (line 14)");
  });

  it('refuses, naming the line and column: a number or a date it cannot read, a short row, a trade without shares, data after the disclaimer', () => {
    expect(refusal([' 01/03/2024,"YOU BOUGHT APPLE INC (AAPL) (Cash)",AAPL,APPLE INC,Cash,1O,185,,,,-1850,0,01/05/2024'])).toMatch(/^history\.csv, line 2: column 'Quantity'/);
    expect(refusal([' 2024/13/03,"YOU BOUGHT APPLE INC (AAPL) (Cash)",AAPL,APPLE INC,Cash,10,185,,,,-1850,0,01/05/2024'])).toMatch(/^history\.csv, line 2: column 'Run Date'/);
    expect(refusal([' 01/03/2024,"YOU BOUGHT APPLE INC (AAPL) (Cash)",AAPL,APPLE INC,Cash'])).toMatch(/line 2: malformed CSV \(expected 13 columns, found 5\)/);
    expect(refusal([' 01/03/2024,"YOU BOUGHT APPLE INC (AAPL) (Cash)",AAPL,APPLE INC,Cash,,185,,,,-1850,0,01/05/2024'])).toMatch(/line 2: column 'Quantity'/);
    expect(
      refusal([' 01/03/2024,"YOU BOUGHT APPLE INC (AAPL) (Cash)",AAPL,APPLE INC,Cash,1,185,,,,-185,0,', '"Date downloaded 07/01/2024"', ' 01/04/2024,"YOU BOUGHT APPLE INC (AAPL) (Cash)",AAPL,APPLE INC,Cash,1,185,,,,-185,0,']),
    ).toMatch(/line 4: malformed CSV \(a data row after the closing disclaimer\)/);
  });
});
