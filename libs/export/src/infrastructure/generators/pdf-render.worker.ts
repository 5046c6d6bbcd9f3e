import { parentPort } from 'node:worker_threads';
import type { ExportDocument } from '../../domain/export-document.js';
import { renderPdf } from './pdf-document.js';

/**
 * Renders one PDF off the main thread and hands the bytes back. The worker starts ahead of need
 * (pdfmake and the fonts loaded) and waits for its one document.
 */
parentPort?.once('message', ({ document, paper }: { document: ExportDocument; paper: 'A4' | 'LETTER' }) => {
  renderPdf(document, paper).then(
    (content) => parentPort?.postMessage({ content }, [content.buffer as ArrayBuffer]),
    (error: unknown) => parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) }),
  );
});
