import { createRequire } from 'node:module';
import pdfmake from 'pdfmake';
import type { ExportDocument, ExportTrade } from '../../domain/export-document.js';
import { pdfDefinition } from './pdf-document.js';
import { SHORTCUTS_FOR, pdfkitShortcuts } from './pdfkit-shortcuts.js';

/** Modules as pdfmake finds them: its own pdfkit, whichever copy that is. */
const requireFromPdfmake = createRequire(createRequire(import.meta.url).resolve('pdfmake'));

/** Texts that kern in Helvetica (AV, Yo, LT …), several colours, and a name beyond Latin-1 (set in Roboto). */
const trade = (index: number): ExportTrade => ({
  symbol: ['AVAV', 'WAY', 'LTYO', 'PEP'][index % 4],
  side: index % 3 === 0 ? 'short' : 'long',
  source: index % 2 === 0 ? 'broker' : 'fifo',
  buyDate: '2024-04-0' + (1 + (index % 9)),
  sellDate: '2024-05-1' + (index % 10),
  volume: 1 + (index % 50),
  buyPrice: 10 + index / 7,
  sellPrice: 10 + index / 6,
  totalProfitLoss: index % 5 === 0 ? 0 : (index % 2 === 0 ? -1 : 1) * index * 1.25,
  returnPercentage: (index % 7) - 3,
  tradeResult: index % 2 === 0 ? 'Loss' : 'Win',
});
const month: ExportDocument = {
  period: { kind: 'month', value: '2024-05' },
  account: 'XXXX-1234',
  summary: { totalTrades: 400, winningTrades: 200, winRate: 50, tradingProfitLoss: -12.5, totalDividends: 10.5, totalReturn: -2 },
  trades: Array.from({ length: 400 }, (_, index) => trade(index)),
  dividends: [{ transactionDate: '2024-05-15', symbol: 'AVY', action: 'Qualified Dividend', amount: 10.5 }],
};

/** The document's bytes, dated once so that two renderings can be compared. */
async function rendered(document: ExportDocument): Promise<Buffer> {
  const definition = pdfDefinition(document, 'A4');
  definition.info = { ...definition.info, creationDate: new Date(Date.UTC(2024, 5, 1)) };
  return Buffer.from(await pdfmake.createPdf(definition).getBuffer());
}

describe('pdfkit shortcuts', () => {
  afterEach(() => pdfkitShortcuts.on());

  it('apply to the pdfkit version they were checked against (another version wants them checked again)', () => {
    const pdfkitOfPdfmake = requireFromPdfmake('pdfkit/package.json') as { version: string };
    expect(pdfkitShortcuts.version).toBe(pdfkitOfPdfmake.version);
    expect(pdfkitShortcuts.version).toBe(SHORTCUTS_FOR);
    expect(pdfkitShortcuts.active).toBe(true);
  });

  it('give the same PDF, byte for byte, as pdfkit on its own: Helvetica and embedded Roboto', async () => {
    const beyondLatin1: ExportDocument = { ...month, dividends: [{ ...month.dividends![0], action: 'Дивиденды – AVAV Dividend' }] };
    for (const document of [month, beyondLatin1]) {
      const quick = await rendered(document);
      pdfkitShortcuts.off();
      expect(pdfkitShortcuts.active).toBe(false);
      const plain = await rendered(document);
      pdfkitShortcuts.on();
      expect(quick.length).toBeGreaterThan(10_000);
      expect(quick.equals(plain)).toBe(true);
    }
  });

  it('kern every pair of glyphs of every standard face as pdfkit does, and a last glyph or unknown pair by 0', () => {
    const PDFDocument = requireFromPdfmake('pdfkit') as new (options: object) => {
      font(name: string): { _font: { font: { kernPairs: Record<string, number>; getKernPair(left: string, right?: string): number } } };
    };
    const original = pdfkitShortcuts.original('getKernPair') as unknown as (this: unknown, left: string, right?: string) => number;
    let pairs = 0;
    for (const face of ['Helvetica', 'Helvetica-Bold', 'Times-Roman', 'Courier']) {
      const font = new PDFDocument({ autoFirstPage: false }).font(face)._font.font;
      for (const pair of Object.keys(font.kernPairs)) {
        const [left, right] = pair.split('\0');
        expect(font.getKernPair(left, right)).toBe(original.call(font, left, right));
        expect(font.getKernPair(left, right)).not.toBe(0);
        pairs += 1;
      }
      for (const [left, right] of [['A', undefined], ['A', 'A'], ['zero', 'one'], ['nope', 'V']] as const) {
        expect(font.getKernPair(left, right)).toBe(original.call(font, left, right));
      }
    }
    expect(pairs).toBeGreaterThan(5_000);
  });
});
