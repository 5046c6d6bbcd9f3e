import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import pdfmake from 'pdfmake';
import type { TDocumentDefinitions } from 'pdfmake/interfaces.js';
import {
  DIVIDEND_COLUMNS,
  TRADE_COLUMNS,
  exportTitle,
  priceColumnDecimals,
  summaryRows,
  type ExportDocument,
} from '../../domain/export-document.js';
// Quicker steps for pdfkit, which pdfmake drives: loaded for what it does to pdfkit's classes.
import './pdfkit-shortcuts.js';

/** The Roboto faces that ship inside the pdfmake package: no network, nothing to download. */
const FONT_DIR = join(dirname(createRequire(import.meta.url).resolve('pdfmake/package.json')), 'fonts', 'Roboto');
/**
 * Helvetica, one of the faces every PDF reader has (PDF's standard 14): nothing embedded, and a text's
 * width summed from the face's table of glyph widths, where an embedded face shapes each text with its
 * OpenType tables (a third of laying out a 5,000-trade PDF). It writes Latin-1 only: a document with
 * any other character is set in Roboto (`fontFor`).
 */
const STANDARD_FACES = { normal: 'Helvetica', bold: 'Helvetica-Bold', italics: 'Helvetica-Oblique', bolditalics: 'Helvetica-BoldOblique' };
pdfmake.setFonts({
  Helvetica: STANDARD_FACES,
  Roboto: {
    normal: join(FONT_DIR, 'Roboto-Regular.ttf'),
    bold: join(FONT_DIR, 'Roboto-Medium.ttf'),
    italics: join(FONT_DIR, 'Roboto-Italic.ttf'),
    bolditalics: join(FONT_DIR, 'Roboto-MediumItalic.ttf'),
  },
});
// Documents are built from our own data only: no remote resources, no files but the fonts (pdfmake
// asks about the standard faces' names too, as if they were files).
const STANDARD_FACE_NAMES = new Set(Object.values(STANDARD_FACES));
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((path: string) => path.startsWith(FONT_DIR) || STANDARD_FACE_NAMES.has(path));

/** A character outside printable Latin-1, which the standard faces cannot write. */
const BEYOND_LATIN_1 = /[^\x20-\x7e\xa0-\xff]/;

/**
 * Helvetica when every text of the document is printable Latin-1 (tickers, dates, figures and most
 * brokers' words); otherwise Roboto, which has the glyphs (a dividend described in another script).
 */
export function fontFor(document: ExportDocument): 'Helvetica' | 'Roboto' {
  const texts = [exportTitle(document), document.account ?? ''];
  for (const trade of document.trades) texts.push(trade.symbol, trade.side, trade.source, trade.tradeResult);
  for (const dividend of document.dividends ?? []) texts.push(dividend.symbol, dividend.action);
  return texts.some((text) => BEYOND_LATIN_1.test(text)) ? 'Roboto' : 'Helvetica';
}

/**
 * Figures as a US reader writes them (`1,234.50`). One formatter per form, made once: `toLocaleString`
 * with options makes a new one on every call, which was a fifth of laying out a 5,000-trade PDF.
 */
const FORMATS = { 2: fixedPlaces(2), 4: fixedPlaces(4) };
const money = (value: number) => FORMATS[2].format(value);
const price = (value: number, places: 2 | 4) => FORMATS[places].format(value);

function fixedPlaces(places: number): Intl.NumberFormat {
  return new Intl.NumberFormat('en-US', { minimumFractionDigits: places, maximumFractionDigits: places });
}

/** The pdfmake document: landscape, readable on A4 and Letter, with page numbers. */
export function pdfDefinition(document: ExportDocument, paper: 'A4' | 'LETTER'): TDocumentDefinitions {
  // Headings of number columns sit right, over their figures.
  const header = (cells: readonly string[], numeric: number[]) =>
    cells.map((text, index) => ({ text, style: 'th', alignment: numeric.includes(index) ? ('right' as const) : ('left' as const) }));
  const dividends = document.dividends;
  const places = priceColumnDecimals(document.trades);
  const signed = (value: number) => ({ text: money(value), alignment: 'right' as const, color: value < 0 ? '#b00020' : value > 0 ? '#0a7d32' : '#333333' });
  return {
    pageSize: paper,
    pageOrientation: 'landscape',
    pageMargins: [36, 48, 36, 48],
    info: { title: exportTitle(document), creator: 'stocks-trading-analysis' },
    defaultStyle: { font: fontFor(document), fontSize: 9 },
    styles: {
      title: { fontSize: 16, bold: true, margin: [0, 0, 0, 4] },
      subtitle: { fontSize: 10, color: '#555555', margin: [0, 0, 0, 12] },
      section: { fontSize: 12, bold: true, margin: [0, 14, 0, 6] },
      th: { bold: true, fillColor: '#eeeeee' },
    },
    footer: (page: number, pages: number) => ({ text: `Page ${page} of ${pages}`, alignment: 'center', fontSize: 8, color: '#777777', margin: [0, 16, 0, 0] }),
    content: [
      { text: exportTitle(document), style: 'title' },
      { text: document.account ? `Account ${document.account}` : 'Account not set', style: 'subtitle' },
      {
        table: {
          widths: [120, 90],
          body: summaryRows(document.summary).map(([label, value]) => [
            { text: label, bold: true },
            label === 'Trades' || label === 'Winning trades' ? { text: String(value), alignment: 'right' } : label === 'Win rate %' ? { text: `${value.toFixed(2)} %`, alignment: 'right' } : signed(value),
          ]),
        },
        layout: 'lightHorizontalLines',
      },
      { text: `Trades (${document.trades.length})`, style: 'section' },
      document.trades.length === 0
        ? { text: 'No completed trades.', italics: true }
        : {
            table: {
              headerRows: 1,
              widths: ['auto', 'auto', 'auto', 'auto', 'auto', '*', '*', '*', '*', 'auto', 'auto'],
              body: [
                header(TRADE_COLUMNS, [5, 6, 7, 8, 9]),
                ...document.trades.map((trade) => [
                  { text: trade.symbol, bold: true },
                  trade.side,
                  trade.source,
                  trade.buyDate,
                  trade.sellDate,
                  { text: String(trade.volume), alignment: 'right' },
                  { text: price(trade.buyPrice, places.buy), alignment: 'right' },
                  { text: price(trade.sellPrice, places.sell), alignment: 'right' },
                  signed(trade.totalProfitLoss),
                  { text: trade.returnPercentage.toFixed(2), alignment: 'right' },
                  trade.tradeResult,
                ]),
              ],
            },
            layout: 'lightHorizontalLines',
          },
      ...(dividends === null
        ? []
        : [
            { text: `Dividends (${dividends.length})`, style: 'section' },
            dividends.length === 0
              ? { text: 'No dividends.', italics: true }
              : {
                  table: {
                    headerRows: 1,
                    widths: ['auto', 'auto', '*', 'auto'],
                    body: [
                      header(DIVIDEND_COLUMNS, [3]),
                      ...dividends.map((dividend) => [dividend.transactionDate, { text: dividend.symbol, bold: true }, dividend.action, signed(dividend.amount)]),
                    ],
                  },
                  layout: 'lightHorizontalLines',
                },
          ]),
    ],
  } as TDocumentDefinitions;
}

/** Renders in the calling thread; the generator runs it in a worker so the server stays responsive. */
export async function renderPdf(document: ExportDocument, paper: 'A4' | 'LETTER'): Promise<Buffer> {
  const output = pdfmake.createPdf(pdfDefinition(document, paper));
  return Buffer.from(await output.getBuffer());
}
