import Papa from 'papaparse';
import XLSX from 'xlsx';

/** Reading generated files back, for tests: CSV blocks, workbook sheets, PDF text. */
export function csvRows(content: Buffer): string[][] {
  const parsed = Papa.parse<string[]>(content.toString('utf8').replace(/^\uFEFF/, ''), { skipEmptyLines: false });
  return parsed.data;
}

/** The rows of the CSV block that follows the line whose first cell starts with `title`, up to a blank line. */
export function csvBlock(rows: string[][], title: string): string[][] {
  const start = rows.findIndex((row) => row[0]?.startsWith(title));
  if (start < 0) return [];
  const block: string[][] = [];
  for (const row of rows.slice(start + 1)) {
    if (row.length === 1 && row[0] === '') break;
    block.push(row);
  }
  return block;
}

export function workbook(content: Buffer): XLSX.WorkBook {
  return XLSX.read(content, { type: 'buffer', cellDates: false, cellNF: true, cellStyles: true });
}

export function sheetCells(book: XLSX.WorkBook, name: string): XLSX.CellObject[][] {
  const sheet = book.Sheets[name];
  const range = XLSX.utils.decode_range(sheet['!ref'] ?? 'A1:A1');
  const rows: XLSX.CellObject[][] = [];
  for (let r = range.s.r; r <= range.e.r; r += 1) {
    const row: XLSX.CellObject[] = [];
    for (let c = range.s.c; c <= range.e.c; c += 1) row.push(sheet[XLSX.utils.encode_cell({ r, c })] ?? { t: 'z' });
    rows.push(row);
  }
  return rows;
}

/** Every page's text of a PDF (pdfjs-dist), pages joined by form feeds. */
export async function pdfText(content: Buffer): Promise<{ pages: number; text: string }> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdf = await pdfjs.getDocument({ data: new Uint8Array(content), useSystemFonts: false, isEvalSupported: false }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= pdf.numPages; number += 1) {
    const page = await pdf.getPage(number);
    const text = await page.getTextContent();
    const pageText = text.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
    pages.push(pageText.replace(/[ \t]+/g, ' '));
  }
  await pdf.destroy();
  return { pages: pdf.numPages, text: pages.join('\f') };
}
