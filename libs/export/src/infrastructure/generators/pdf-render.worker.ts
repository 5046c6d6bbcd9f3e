import { parentPort } from 'node:worker_threads';
import type { ExportDocument } from '../../domain/export-document.js';
import { renderPdf } from './pdf-document.js';

/**
 * Renders PDFs off the main thread, a document per message, and hands the bytes back. The thread
 * starts ahead of need (pdfmake and the fonts loaded) and renders the documents it is given one after
 * another (`PdfExportGenerator` keeps it warm for a while).
 */
parentPort?.on('message', ({ document, paper }: { document: ExportDocument; paper: 'A4' | 'LETTER' }) => {
  renderPdf(document, paper).then(
    // Moved, not copied, when the bytes have a buffer of their own (a small Buffer may share Node's pool).
    (content) => parentPort?.postMessage({ content }, ownsItsMemory(content) ? [content.buffer as ArrayBuffer] : []),
    (error: unknown) => parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) }),
  );
});

function ownsItsMemory(content: Buffer): boolean {
  return content.byteOffset === 0 && content.byteLength === content.buffer.byteLength;
}
