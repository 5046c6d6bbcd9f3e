import { Injectable } from '@nestjs/common';
import Papa from 'papaparse';
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

/**
 * CSV (papaparse): one file with three blocks separated by a blank line: the title and summary,
 * the trades table, the dividends table (a trade list has none). Money with two decimals, dates `YYYY-MM-DD`.
 */
@Injectable()
export class CsvExportGenerator extends ExportGenerator {
  readonly format = 'csv' as const;

  async generate(document: ExportDocument): Promise<GeneratedFile> {
    const text = (value: string) => neutraliseFormula(value);
    const money = (value: number) => value.toFixed(2);
    const places = priceColumnDecimals(document.trades);
    const rows: (string | number)[][] = [
      [text(exportTitle(document))],
      ['Account', text(document.account ?? '')],
      [],
      ['Summary', 'Value'],
      ...summaryRows(document.summary).map(([label, value]) => [label, Number.isInteger(value) && !label.includes('P&L') && !label.includes('Dividends') && label !== 'Total' ? value : money(value)]),
      [],
      [`Trades (${document.trades.length})`],
      [...TRADE_COLUMNS],
      ...document.trades.map((trade) => [
        text(trade.symbol),
        trade.side,
        trade.source,
        trade.buyDate,
        trade.sellDate,
        trade.volume,
        trade.buyPrice.toFixed(places.buy),
        trade.sellPrice.toFixed(places.sell),
        money(trade.totalProfitLoss),
        trade.returnPercentage.toFixed(2),
        trade.tradeResult,
      ]),
      ...(document.dividends === null
        ? []
        : [
            [],
            [`Dividends (${document.dividends.length})`],
            [...DIVIDEND_COLUMNS],
            ...document.dividends.map((dividend) => [dividend.transactionDate, text(dividend.symbol), text(dividend.action), money(dividend.amount)]),
          ]),
    ];
    const csv = Papa.unparse(rows, { newline: '\r\n' });
    return {
      mediaType: 'text/csv; charset=utf-8',
      fileName: exportFileName(document.period, 'csv'),
      // A BOM so spreadsheet programs read the file as UTF-8.
      content: Buffer.from(`\uFEFF${csv}\r\n`, 'utf8'),
    };
  }
}
