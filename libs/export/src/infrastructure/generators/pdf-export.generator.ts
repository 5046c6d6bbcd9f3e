import { Worker } from 'node:worker_threads';
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Lane } from '@app/shared';
import { ExportGenerator, type GeneratedFile } from '../../application/export-generator.port.js';
import { exportFileName, type ExportDocument } from '../../domain/export-document.js';

/** At most this many PDFs are laid out at once; more wait their turn. */
const MAX_PARALLEL_RENDERS = 2;
const RENDER_TIMEOUT_MS = 60_000;

/**
 * PDF (pdfmake, fonts from the package, no network). Laying out thousands of table rows is CPU work,
 * so each document is rendered in a worker thread and the server keeps answering meanwhile. One
 * worker is kept started and waiting, so a request does not also pay for loading pdfmake.
 */
@Injectable()
export class PdfExportGenerator extends ExportGenerator implements OnModuleDestroy {
  readonly format = 'pdf' as const;
  private readonly renders = new Lane(MAX_PARALLEL_RENDERS);
  private spare: Worker | undefined;

  async generate(document: ExportDocument, options: { paper: 'A4' | 'LETTER' }): Promise<GeneratedFile> {
    return this.renders.run(async () => {
      try {
        const worker = this.spare ?? startWorker();
        this.spare = undefined;
        const content = await render(worker, document, options.paper);
        return { mediaType: 'application/pdf', fileName: exportFileName(document.period, 'pdf'), content };
      } finally {
        // Before the lane lets the next render in, so that render finds the spare started.
        this.keepSpare();
      }
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.spare?.terminate();
    this.spare = undefined;
  }

  private keepSpare(): void {
    if (this.spare !== undefined) return;
    const worker = startWorker();
    worker.unref();
    worker.once('exit', () => {
      if (this.spare === worker) this.spare = undefined;
    });
    this.spare = worker;
  }
}

function startWorker(): Worker {
  return new Worker(new URL('./pdf-render.worker.js', import.meta.url));
}

function render(worker: Worker, document: ExportDocument, paper: 'A4' | 'LETTER'): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    worker.ref();
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
    worker.postMessage({ document, paper });
  });
}
