import { Worker } from 'node:worker_threads';
import { Injectable } from '@nestjs/common';
import { ExportGenerator, type GeneratedFile } from '../../application/export-generator.port.js';
import { exportFileName, type ExportDocument } from '../../domain/export-document.js';

/** At most this many PDFs are laid out at once; more wait their turn. */
const MAX_PARALLEL_RENDERS = 2;
const RENDER_TIMEOUT_MS = 60_000;

/**
 * PDF (pdfmake, fonts from the package, no network). Laying out thousands of table rows is CPU work,
 * so each document is rendered in a worker thread and the server keeps answering meanwhile.
 */
@Injectable()
export class PdfExportGenerator extends ExportGenerator {
  readonly format = 'pdf' as const;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  async generate(document: ExportDocument, options: { paper: 'A4' | 'LETTER' }): Promise<GeneratedFile> {
    await this.acquire();
    try {
      const content = await renderInWorker(document, options.paper);
      return { mediaType: 'application/pdf', fileName: exportFileName(document.period, 'pdf'), content };
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.running < MAX_PARALLEL_RENDERS) {
      this.running += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }
}

function renderInWorker(document: ExportDocument, paper: 'A4' | 'LETTER'): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./pdf-render.worker.js', import.meta.url), { workerData: { document, paper } });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error(`PDF rendering took longer than ${RENDER_TIMEOUT_MS / 1000} s`));
    }, RENDER_TIMEOUT_MS);
    worker.once('message', (message: { content?: Uint8Array; error?: string }) => {
      clearTimeout(timer);
      void worker.terminate();
      if (message.content) resolve(Buffer.from(message.content));
      else reject(new Error(`PDF rendering failed: ${message.error}`));
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
