import { Worker } from 'node:worker_threads';
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Lane } from '@app/shared';
import { ExportGenerator, type GeneratedFile } from '../../application/export-generator.port.js';
import { exportFileName, type ExportDocument } from '../../domain/export-document.js';

/** At most this many PDFs are laid out at once; more wait their turn. */
const MAX_PARALLEL_RENDERS = 2;
const RENDER_TIMEOUT_MS = 60_000;
/**
 * A thread that has rendered waits this long for the next document, then is ended and a fresh one
 * started in its place: a render leaves a few hundred megabytes in the thread's heap (a 5,000-trade
 * month), which V8 keeps until the thread ends.
 */
const WARM_FOR_MS = 15_000;
/** A thread renders at most this many documents, then is replaced (whatever a long life gathers goes with it). */
const RENDERS_PER_THREAD = 50;

/** A render thread: the worker, the documents it has rendered, and its wait for the next one. */
interface RenderThread {
  readonly worker: Worker;
  renders: number;
  expiry?: NodeJS.Timeout;
}

/**
 * PDF (pdfmake, fonts from the package, no network). Laying out thousands of table rows is CPU work,
 * so each document is rendered in a worker thread and the server keeps answering meanwhile. From the
 * first render on, a thread waits started (a request does not pay for loading pdfmake), and one that
 * has rendered takes the next document if it comes within `WARM_FOR_MS`: its layout code is compiled by
 * then, and a 5,000-trade month takes 1.7–2.2 s there against 2.2–2.6 s on a fresh thread
 * (docs/operations.md "PDF exports").
 */
@Injectable()
export class PdfExportGenerator extends ExportGenerator implements OnModuleDestroy {
  readonly format = 'pdf' as const;
  private readonly renders = new Lane(MAX_PARALLEL_RENDERS);
  /** Threads waiting for a document, the most recently used last. */
  private readonly waiting: RenderThread[] = [];
  private closed = false;

  async generate(document: ExportDocument, options: { paper: 'A4' | 'LETTER' }): Promise<GeneratedFile> {
    return this.renders.run(async () => {
      const thread = this.take();
      let rendered = false;
      try {
        const content = await render(thread, document, options.paper);
        rendered = true;
        return { mediaType: 'application/pdf', fileName: exportFileName(document.period, 'pdf'), content };
      } finally {
        // Before the lane lets the next render in, so that render finds a thread started.
        this.putBack(thread, rendered);
      }
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    await Promise.all(this.waiting.splice(0).map((thread) => end(thread)));
  }

  private take(): RenderThread {
    const thread = this.waiting.pop() ?? this.startThread();
    clearTimeout(thread.expiry);
    return thread;
  }

  /** A thread that rendered, with renders left, waits warm; otherwise it ends and a fresh one waits, if none does. */
  private putBack(thread: RenderThread, rendered: boolean): void {
    if (this.closed) return void end(thread);
    if (!rendered || thread.renders >= RENDERS_PER_THREAD || this.waiting.length >= MAX_PARALLEL_RENDERS) {
      void end(thread);
      this.keepOneWaiting();
      return;
    }
    this.wait(thread);
    thread.expiry = setTimeout(() => {
      this.forget(thread);
      void end(thread);
      this.keepOneWaiting();
    }, WARM_FOR_MS).unref();
  }

  /** A fresh thread waits when none does (unless the module is closing). */
  private keepOneWaiting(): void {
    if (this.waiting.length === 0 && !this.closed) this.wait(this.startThread());
  }

  private startThread(): RenderThread {
    const thread: RenderThread = { worker: new Worker(new URL('./pdf-render.worker.js', import.meta.url)), renders: 0 };
    // A waiting thread that fails or ends (it should not) is forgotten, and the next render starts
    // another; the error listener keeps its error from the process (a render takes it as its own).
    thread.worker.on('error', () => undefined).once('exit', () => this.forget(thread));
    return thread;
  }

  private forget(thread: RenderThread): void {
    clearTimeout(thread.expiry);
    const index = this.waiting.indexOf(thread);
    if (index >= 0) this.waiting.splice(index, 1);
  }

  private wait(thread: RenderThread): void {
    thread.worker.unref();
    this.waiting.push(thread);
  }
}

function end(thread: RenderThread): Promise<number> {
  clearTimeout(thread.expiry);
  return thread.worker.terminate();
}

/** One document on the thread; the thread is ended when it fails or takes too long. */
function render(thread: RenderThread, document: ExportDocument, paper: 'A4' | 'LETTER'): Promise<Buffer> {
  const { worker } = thread;
  return new Promise<Buffer>((resolve, reject) => {
    const settle = (outcome: () => void) => {
      clearTimeout(timer);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      outcome();
    };
    const fail = (error: Error) =>
      settle(() => {
        void worker.terminate();
        reject(error);
      });
    const onMessage = ({ content, error }: { content?: Uint8Array; error?: string }) =>
      content ? settle(() => resolve(Buffer.from(content.buffer, content.byteOffset, content.byteLength))) : fail(new Error(`PDF rendering failed: ${error}`));
    const onError = (error: Error) => fail(error);
    const onExit = (code: number) => fail(new Error(`The PDF rendering thread ended (exit code ${code})`));
    const timer = setTimeout(() => fail(new Error(`PDF rendering took longer than ${RENDER_TIMEOUT_MS / 1000} s`)), RENDER_TIMEOUT_MS);
    worker.ref();
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    thread.renders += 1;
    worker.postMessage({ document, paper });
  });
}
