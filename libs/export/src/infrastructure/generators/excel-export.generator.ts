import { Injectable } from '@nestjs/common';
import type { CellObject, WorkSheet } from 'xlsx';
import { ExportGenerator, type GeneratedFile } from '../../application/export-generator.port.js';
import {
  DIVIDEND_COLUMNS,
  TRADE_COLUMNS,
  exportFileName,
  exportTitle,
  priceColumnDecimals,
  summaryRows,
  type ExportDocument,
} from '../../domain/export-document.js';
import { neutraliseFormula } from '../../domain/spreadsheet-safety.js';

const MONEY = '#,##0.00;[Red]-#,##0.00';
/** A price column's format: as many decimals as the column needs (`priceDecimals`). */
const PRICE = { 2: '#,##0.00', 4: '#,##0.0000' } as const;
const PERCENT = '0.00';
const DATE = 'yyyy-mm-dd';

type Cell = CellObject;

/**
 * SheetJS, loaded at the first spreadsheet: ~12 MB of heap (and more of compiled code) that an instance
 * which never exports a workbook does not carry.
 */
const sheetJs = async () => (await import('xlsx')).default;

const text = (value: string): Cell => ({ t: 's', v: neutraliseFormula(value) });
const number = (value: number, format?: string): Cell => ({ t: 'n', v: value, ...(format ? { z: format } : {}) });
/** A real date cell (a serial day number with a date format), from `YYYY-MM-DD`. */
const date = (value: string): Cell => {
  const [year, month, day] = value.split('-').map(Number);
  const serial = (Date.UTC(year, month - 1, day) - Date.UTC(1899, 11, 30)) / 86400000;
  return { t: 'n', v: serial, z: DATE };
};

/**
 * Excel (SheetJS, write only: uploaded workbooks are never parsed with it): one sheet per table
 * (Summary, Trades, Dividends), a header row, typed number and date cells, column widths to fit.
 */
@Injectable()
export class ExcelExportGenerator extends ExportGenerator {
  readonly format = 'excel' as const;

  async generate(document: ExportDocument): Promise<GeneratedFile> {
    const XLSX = await sheetJs();
    const book = XLSX.utils.book_new();
    const summary: Cell[][] = [
      [text(exportTitle(document)), text('')],
      [text('Account'), text(document.account ?? '')],
      [text('Item'), text('Value')],
      ...summaryRows(document.summary).map(([label, value]) => [
        text(label),
        label === 'Trades' || label === 'Winning trades' ? number(value) : number(value, label === 'Win rate %' ? PERCENT : MONEY),
      ]),
    ];
    const places = priceColumnDecimals(document.trades);
    const trades: Cell[][] = [
      TRADE_COLUMNS.map(text),
      ...document.trades.map((trade) => [
        text(trade.symbol),
        text(trade.side),
        text(trade.source),
        date(trade.buyDate),
        date(trade.sellDate),
        number(trade.volume),
        number(trade.buyPrice, PRICE[places.buy]),
        number(trade.sellPrice, PRICE[places.sell]),
        number(trade.totalProfitLoss, MONEY),
        number(trade.returnPercentage, PERCENT),
        text(trade.tradeResult),
      ]),
    ];
    const dividends: Cell[][] = [
      DIVIDEND_COLUMNS.map(text),
      ...(document.dividends ?? []).map((dividend) => [date(dividend.transactionDate), text(dividend.symbol), text(dividend.action), number(dividend.amount, MONEY)]),
    ];
    const sheet = (rows: Cell[][], widths: number[]): WorkSheet => {
      const worksheet = XLSX.utils.aoa_to_sheet(rows);
      worksheet['!cols'] = widths.map((wch) => ({ wch }));
      return worksheet;
    };
    XLSX.utils.book_append_sheet(book, sheet(summary, [24, 16]), 'Summary');
    XLSX.utils.book_append_sheet(book, sheet(trades, [10, 7, 8, 12, 12, 12, 12, 12, 14, 10, 10]), 'Trades');
    if (document.dividends !== null) XLSX.utils.book_append_sheet(book, sheet(dividends, [12, 10, 24, 12]), 'Dividends');
    const content = XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
    return {
      mediaType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      fileName: exportFileName(document.period, 'xlsx'),
      content,
    };
  }
}

