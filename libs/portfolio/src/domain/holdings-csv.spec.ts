import { holdingTypeFromCsv } from './holding-type.js';
import { HoldingsCsvFormatError, parseCsvDate, parseHoldingsCsv } from './holdings-csv.js';

describe('parseHoldingsCsv', () => {
  it('reads the contract columns, case-insensitively, with the ../shared/spec/decisions.md type mapping', () => {
    const { rows, errors } = parseHoldingsCsv(
      [
        'Symbol,SHARES,Cost_Basis,Security_Type,Purchase_Date,Notes',
        'aapl,10,"$1,502.50",STOCK,2024-01-15,core',
        'VTI,3.5,700,ETF,03/01/2024,',
        'VFIAX,2,900,Mutual Fund,,',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
    expect(rows.map((r) => [r.line, r.symbol, r.shares.toString(), r.averageCost?.toString(), r.holdingType, r.purchaseDate, r.notes])).toEqual([
      [2, 'AAPL', '10', '150.25', 'stock', '2024-01-15', 'core'],
      [3, 'VTI', '3.5', '200', 'etf', '2024-03-01', undefined],
      [4, 'VFIAX', '2', '450', 'mutual_fund', undefined, undefined],
    ]);
  });

  it('prefers average_cost over cost_basis, and keeps cost basis ÷ shares exact to ten places', () => {
    const { rows } = parseHoldingsCsv('symbol,shares,average_cost,cost_basis\nA,3,5,999\nB,3,,1000\n');
    expect(rows[0].averageCost?.toString()).toBe('5');
    expect(rows[1].averageCost?.toString()).toBe('333.3333333333');
  });

  it('reports bad rows as "Row N: reason" with the file line number, and keeps the good rows', () => {
    const { rows, errors } = parseHoldingsCsv(
      [
        'symbol,shares,average_cost,type', // line 1
        'AAPL,10,150,stock', // 2
        'MSFT,abc,300,stock', // 3
        '', // 4 (blank: skipped silently)
        ',5,1,stock', // 5
        'GOOG,-2,100,stock', // 6
        'TSLA,1,100,bond', // 7
        'NVDA,"1,000",12.5,Equity', // 8
        'AAPL,1,1,stock', // 9
        'BAD SYMBOL!,1,1,stock', // 10
        'AMZN,1,$-3,stock', // 11
      ].join('\r\n'),
    );
    expect(rows.map((r) => [r.symbol, r.shares.toString()])).toEqual([
      ['AAPL', '10'],
      ['NVDA', '1000'],
    ]);
    expect(errors).toEqual([
      "Row 3: invalid shares value 'abc'",
      'Row 5: symbol is missing',
      "Row 6: shares must be greater than 0 (got '-2')",
      "Row 7: unknown security type 'bond' (use STOCK, EQUITY, ETF, MUTUAL FUND or MF)",
      'Row 9: duplicate symbol AAPL (first on row 2)',
      "Row 10: invalid symbol 'BAD SYMBOL!'",
      "Row 11: average_cost must not be negative (got '$-3')",
    ]);
  });

  it('counts lines inside quoted cells when numbering rows', () => {
    const { errors } = parseHoldingsCsv('symbol,shares,notes\nAAPL,1,"two\nlines"\nMSFT,x,\n');
    expect(errors).toEqual(["Row 4: invalid shares value 'x'"]);
  });

  it('accepts a byte-order mark and header names with spaces', () => {
    const { rows } = parseHoldingsCsv('\uFEFFSymbol,Shares,Average Cost\nQQQ,1,400\n');
    expect(rows[0]).toMatchObject({ symbol: 'QQQ', line: 2 });
    expect(rows[0].averageCost?.toString()).toBe('400');
  });

  it('refuses a file without the required columns, and an empty one', () => {
    expect(() => parseHoldingsCsv('ticker,quantity\nAAPL,1\n')).toThrow(HoldingsCsvFormatError);
    expect(() => parseHoldingsCsv('ticker,quantity\nAAPL,1\n')).toThrow(/missing: symbol, shares/);
    expect(() => parseHoldingsCsv('')).toThrow('The CSV file is empty');
    expect(() => parseHoldingsCsv('symbol,shares\n')).toThrow('The CSV file has no data rows');
  });
});

describe('holding type mapping (../shared/spec/decisions.md §5)', () => {
  it.each([
    ['STOCK', 'stock'],
    ['equity', 'stock'],
    ['ETF', 'etf'],
    ['MUTUAL FUND', 'mutual_fund'],
    ['mutual_fund', 'mutual_fund'],
    ['Mf', 'mutual_fund'],
    ['bond', undefined],
    ['', undefined],
  ])('%p → %p', (cell, type) => {
    expect(holdingTypeFromCsv(cell)).toBe(type);
  });
});

describe('parseCsvDate', () => {
  it.each([
    ['2024-02-29', '2024-02-29'],
    ['2/3/2024', '2024-02-03'],
    ['2023-02-29', undefined],
    ['13/01/2024', undefined],
    ['yesterday', undefined],
  ])('%p → %p', (text, date) => {
    expect(parseCsvDate(text)).toBe(date);
  });
});
