import type { ExportDocument } from '../../domain/export-document.js';
import { csvBlock, csvRows, pdfText, sheetCells, workbook } from '../../testing/read-back.js';
import { CsvExportGenerator } from './csv-export.generator.js';
import { ExcelExportGenerator } from './excel-export.generator.js';
import { fontFor, renderPdf } from './pdf-document.js';

const document: ExportDocument = {
  period: { kind: 'month', value: '2024-05' },
  account: 'XXXX-1234',
  summary: { totalTrades: 3, winningTrades: 1, winRate: 33.33, tradingProfitLoss: -1234.57, totalDividends: 10.5, totalReturn: -1224.07 },
  trades: [
    { symbol: 'NVDA', side: 'long', source: 'broker', buyDate: '2024-03-07', sellDate: '2024-05-08', volume: 90, buyPrice: 46.9896, sellPrice: 39.94, totalProfitLoss: -634.46, returnPercentage: -15, tradeResult: 'Loss' },
    { symbol: '=HYPERLINK("http://evil","x")', side: 'long', source: 'fifo', buyDate: '2024-05-01', sellDate: '2024-05-02', volume: 1.5, buyPrice: 10, sellPrice: 12, totalProfitLoss: 3, returnPercentage: 20, tradeResult: 'Win' },
    { symbol: 'PEP', side: 'short', source: 'fifo', buyDate: '2024-05-20', sellDate: '2024-05-10', volume: 10, buyPrice: 170.3, sellPrice: 110, totalProfitLoss: -603.11, returnPercentage: -35.41, tradeResult: 'Loss' },
  ],
  dividends: [{ transactionDate: '2024-05-15', symbol: 'SCHD', action: '@Cash Dividend', amount: 10.5 }],
};

describe('export generators', () => {
  it('CSV: the title, summary, trades and dividends, readable by a CSV parser, formulas defused', async () => {
    const file = await new CsvExportGenerator().generate(document);
    expect(file).toMatchObject({ mediaType: 'text/csv; charset=utf-8', fileName: 'trading-2024-05.csv' });
    const rows = csvRows(file.content);
    expect(rows[0]).toEqual(['Trading month 2024-05']);
    expect(rows[1]).toEqual(['Account', 'XXXX-1234']);
    expect(csvBlock(rows, 'Summary')).toEqual([
      ['Trades', '3'],
      ['Winning trades', '1'],
      ['Win rate %', '33.33'],
      ['Trading P&L', '-1234.57'],
      ['Dividends', '10.50'],
      ['Total', '-1224.07'],
    ]);
    const trades = csvBlock(rows, 'Trades (3)');
    expect(trades[0]).toEqual(['Symbol', 'Side', 'Source', 'Buy date', 'Sell date', 'Shares', 'Buy price', 'Sell price', 'P&L', 'Return %', 'Result']);
    // Each price column keeps one number of decimals: 4 where any of its prices needs them, else 2.
    expect(trades[1]).toEqual(['NVDA', 'long', 'broker', '2024-03-07', '2024-05-08', '90', '46.9896', '39.94', '-634.46', '-15.00', 'Loss']);
    expect(trades.slice(1).map((row) => [row[6], row[7]])).toEqual([
      ['46.9896', '39.94'],
      ['10.0000', '12.00'],
      ['170.3000', '110.00'],
    ]);
    expect(trades[2][0]).toBe(`'=HYPERLINK("http://evil","x")`);
    expect(trades[3][8]).toBe('-603.11'); // a negative number stays a number
    expect(csvBlock(rows, 'Dividends (1)')).toEqual([
      ['Date', 'Symbol', 'Action', 'Amount'],
      ['2024-05-15', 'SCHD', "'@Cash Dividend", '10.50'],
    ]);
  });

  it('Excel: a sheet per table, header rows, typed numbers and dates, column widths, formulas defused', async () => {
    const file = await new ExcelExportGenerator().generate(document);
    expect(file).toMatchObject({ mediaType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', fileName: 'trading-2024-05.xlsx' });
    const book = workbook(file.content);
    expect(book.SheetNames).toEqual(['Summary', 'Trades', 'Dividends']);
    const trades = sheetCells(book, 'Trades');
    expect(trades[0].map((cell) => cell.v)).toEqual(['Symbol', 'Side', 'Source', 'Buy date', 'Sell date', 'Shares', 'Buy price', 'Sell price', 'P&L', 'Return %', 'Result']);
    const nvda = trades[1];
    expect(nvda[3]).toMatchObject({ t: 'n', v: 45358, z: 'yyyy-mm-dd' }); // 2024-03-07
    expect(nvda[8]).toMatchObject({ t: 'n', v: -634.46 });
    expect(nvda[6]).toMatchObject({ t: 'n', v: 46.9896, z: '#,##0.0000' });
    expect(nvda[7]).toMatchObject({ t: 'n', v: 39.94, z: '#,##0.00' });
    expect(trades[2][0]).toMatchObject({ t: 's', v: `'=HYPERLINK("http://evil","x")` });
    expect(trades[2][0].f).toBeUndefined();
    expect(book.Sheets.Trades['!cols']?.length).toBe(11);
    const summary = sheetCells(book, 'Summary');
    expect(summary.slice(3).map((row) => [row[0].v, row[1].v])).toEqual([
      ['Trades', 3],
      ['Winning trades', 1],
      ['Win rate %', 33.33],
      ['Trading P&L', -1234.57],
      ['Dividends', 10.5],
      ['Total', -1224.07],
    ]);
    const dividends = sheetCells(book, 'Dividends');
    expect(dividends[1].map((cell) => cell.v)).toEqual([45427, 'SCHD', "'@Cash Dividend", 10.5]);
  });

  it('PDF: every trade symbol and P&L, the summary and page numbers, on A4 and Letter', async () => {
    for (const paper of ['A4', 'LETTER'] as const) {
      const { text, pages } = await pdfText(await renderPdf(document, paper));
      expect(pages).toBe(1);
      expect(text).toContain('Trading month 2024-05');
      expect(text).toContain('170.3000'); // the buy prices need 4 decimals, the sell prices 2
      expect(text).toContain('110.00');
      expect(text).not.toContain('110.0000');
      expect(text).toContain('Account XXXX-1234');
      for (const trade of document.trades) {
        expect(text).toContain(trade.symbol);
        expect(text).toContain(trade.totalProfitLoss.toLocaleString('en-US', { minimumFractionDigits: 2 }));
      }
      expect(text).toContain('-1,224.07');
      expect(text).toContain('Page 1 of 1');
    }
  });

  it('PDF: set in Helvetica (nothing embedded) while every text is Latin-1, in Roboto (embedded) otherwise', async () => {
    const latin = { ...document, account: 'Compte épargne', dividends: [{ ...document.dividends![0], action: 'Dividende à payer' }] };
    const beyond = { ...document, dividends: [{ ...document.dividends![0], action: 'Дивиденды – Cash Dividend' }] };
    expect(fontFor(document)).toBe('Helvetica');
    expect(fontFor(latin)).toBe('Helvetica');
    expect(fontFor(beyond)).toBe('Roboto');
    const embedsAFont = (pdf: Buffer) => pdf.includes('/FontFile2');
    const latinPdf = await renderPdf(latin, 'A4');
    const beyondPdf = await renderPdf(beyond, 'A4');
    expect([embedsAFont(latinPdf), embedsAFont(beyondPdf)]).toEqual([false, true]);
    expect((await pdfText(latinPdf)).text).toContain('Dividende à payer');
    expect((await pdfText(latinPdf)).text).toContain('Account Compte épargne');
    expect((await pdfText(beyondPdf)).text).toContain('Дивиденды – Cash Dividend');
  });

  it('PDF: a long month runs over several pages, each numbered', async () => {
    const many = { ...document, trades: Array.from({ length: 300 }, (_, i) => ({ ...document.trades[0], symbol: `S${i}` })) };
    const { text, pages } = await pdfText(await renderPdf(many, 'A4'));
    expect(pages).toBeGreaterThan(3);
    expect(text).toContain(`Page ${pages} of ${pages}`);
    expect(text).toContain('S299');
  });
});
