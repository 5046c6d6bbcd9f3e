import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Decimal } from '@app/shared/domain';
import { matchTrades } from '../hybrid-matcher.js';
import { ImportFileError } from '../import.errors.js';
import { unknownActionWarnings } from '../unknown-actions.js';
import { parseTransactionsFile } from './format-registry.js';

const EXAMPLE = readFileSync(path.resolve(process.cwd(), 'test/fixtures/robinhood/activity.csv'));
const HEADER = '"Activity Date","Process Date","Settle Date","Instrument","Description","Trans Code","Quantity","Price","Amount"';
const parse = (text: string | Buffer) => parseTransactionsFile('activity.csv', text);
const refusal = (rows: string[]): string => {
  try {
    parse([HEADER, ...rows].join('\n'));
  } catch (error) {
    if (error instanceof ImportFileError) return error.message;
    throw error;
  }
  throw new Error('accepted');
};

describe('Robinhood account activity (docs/formats.md)', () => {
  it('reads the example: dates without leading zeros, parentheses, thousands separators, a two-line description, the disclaimer', () => {
    const file = parse(EXAMPLE);
    expect(file.format.id).toBe('robinhood-activity');
    expect(file.dataRows).toBe(11);
    const buy = file.transactions.find((t) => t.date === '2024-03-04')!;
    expect(buy).toMatchObject({ line: 7, action: 'Buy', kind: 'buy', symbol: 'AAPL', description: 'Apple', asOfDate: null });
    expect([buy.quantity?.toString(), buy.price?.toString(), buy.amount?.toString()]).toEqual(['5', '175.1', '-875.5']);
    expect(file.transactions.map((t) => [t.date, t.kind])).toEqual([
      ['2024-06-20', 'sell'],
      ['2024-06-10', 'stock_split'],
      ['2024-05-20', 'buy'],
      ['2024-04-10', 'sell'],
      ['2024-03-08', 'other'],
      ['2024-03-04', 'buy'],
      ['2024-03-01', 'other'],
      ['2024-02-15', 'dividend'],
      ['2024-01-31', 'other'],
      ['2024-01-03', 'buy'],
      ['2024-01-02', 'other'],
    ]);
  });

  it('gives the trades, the dividend and the open lot a hand computes, FIFO (Robinhood gives no lots)', () => {
    const { transactions } = parse(EXAMPLE);
    const result = matchTrades(transactions, []);
    // AAPL: 10 @ 185.00 and 2 of 5 @ 175.10 sold for 2,039.95 (cost 2,200.20); NVDA: 2 @ 950, split 10:1, 20 sold for 2,600.
    const bySymbol = (symbol: string) => result.trades.filter((t) => t.symbol === symbol);
    expect(bySymbol('AAPL').map((t) => [t.source, t.volume.toString()])).toEqual([['fifo', '10'], ['fifo', '2']]);
    expect(Decimal.sum(bySymbol('AAPL').map((t) => t.totalProfitLoss)).toFixed(2)).toBe('-160.25');
    expect(bySymbol('NVDA').map((t) => [t.volume.toString(), t.totalProfitLoss.toFixed(2)])).toEqual([['20', '700.00']]);
    expect(result.dividends.map((d) => [d.symbol, d.transactionDate, d.amount.toString()])).toEqual([['AAPL', '2024-02-15', '2.4']]);
    expect(result.openLots.map((lot) => [lot.symbol, lot.quantity.toString(), lot.amount.toFixed(2)])).toEqual([['AAPL', '3', '525.30']]);
    expect(result.warnings).toEqual([]);
  });

  it('reports what it keeps but counts toward nothing (transfers, interest, options), by code', () => {
    const warnings = unknownActionWarnings('activity.csv', parse(EXAMPLE).transactions);
    expect(warnings).toEqual([
      "activity.csv: 1 row with the Action 'Robinhood option trade (sell to close)' (line 6) not counted: the import does not know this action",
      "activity.csv: 1 row with the Action 'Robinhood option trade (buy to open)' (line 9) not counted: the import does not know this action",
      "activity.csv: 1 row with the Action 'Robinhood interest' (line 11) not counted: the import does not know this action",
      "activity.csv: 1 row with the Action 'Robinhood transfer (ACH)' (line 13) not counted: the import does not know this action",
    ]);
  });

  it('refuses, naming the line and column: an unknown code, a number or a date it cannot read, a short row, data after the disclaimer', () => {
    const row = (cells: string[]) => cells.map((cell) => `"${cell}"`).join(',');
    expect(refusal([row(['1/3/2024', '1/3/2024', '1/5/2024', 'AAPL', 'Apple', 'XYZ', '1', '$1.00', '($1.00)'])])).toMatch(
      /^activity\.csv, line 2: column 'Trans Code': unknown Trans Code 'XYZ' \(known: BUY, SELL, CDIV/,
    );
    expect(refusal([row(['1/3/2024', '1/3/2024', '1/5/2024', 'AAPL', 'Apple', 'Buy', 'ten', '$1.00', '($1.00)'])])).toMatch(/^activity\.csv, line 2: column 'Quantity'/);
    expect(refusal([row(['13/45/2024', '1/3/2024', '1/5/2024', 'AAPL', 'Apple', 'Buy', '1', '$1.00', '($1.00)'])])).toMatch(/^activity\.csv, line 2: column 'Activity Date'/);
    expect(refusal([row(['1/3/2024', '1/3/2024', '1/5/2024', 'AAPL', 'Apple', 'Buy'])])).toMatch(/^activity\.csv, line 2: malformed CSV \(expected 9 columns, found 6\)/);
    expect(refusal([row(['1/3/2024', '1/3/2024', '1/5/2024', 'AAPL', 'Apple', 'Buy', '', '$1.00', '($1.00)'])])).toMatch(/line 2: column 'Quantity'/);
    expect(refusal([row(['1/3/2024', '1/3/2024', '1/5/2024', 'AAPL', 'Apple', 'Buy', '1', '$1.00', '($1.00)']), '"Disclaimer."', row(['1/4/2024', '1/4/2024', '1/6/2024', 'AAPL', 'Apple', 'Buy', '1', '$1.00', '($1.00)'])])).toMatch(
      /line 4: malformed CSV \(a data row after the closing disclaimer\)/,
    );
  });
});
