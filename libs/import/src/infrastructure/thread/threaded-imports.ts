import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { Injectable, Logger } from '@nestjs/common';
import { Database, serveThreadDatabase, type ThreadPort } from '@app/persistence';
import { AppConfig, collectGarbageAbove, fromThreadError, narrowHeapGrowth } from '@app/shared';
import { TradeLedgerNotices } from '@app/trades';
import { IMPORT_STEPS, ImportBrokerageFiles, importParts, type ImportOutcome, type ImportRequest, type ProgressListener, type UploadedFile } from '../../application/import-brokerage-files.service.js';
import { CheckedCsvBytes, forgetDecodedCsvText } from '../../domain/parsers/csv-text.js';
import { IMPORT_ERROR_CLASSES, THREAD_CALLS, type FromImportThread, type ThreadFile, type ThreadImportRequest, type ThreadLogLevel, type ToImportThread } from './import-thread.js';

/** The thread's program, built beside this module (the service runs from dist/; the unit tests from the sources, where there is none). */
const PROGRAM = new URL('./import.thread.js', import.meta.url);
const PROGRAM_BUILT = existsSync(fileURLToPath(PROGRAM));

const LOG_LEVELS = new Set<ThreadLogLevel>(['log', 'error', 'warn', 'debug', 'verbose']);

/** An import's thread as `ThreadedImports` drives it: a Worker. */
export interface ImportThread extends ThreadPort {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  once(event: 'error' | 'exit', listener: (value: any) => void): unknown;
  terminate(): Promise<unknown>;
}

/**
 * Runs a large import on a worker thread of its own (`ImportBrokerageFiles.run` there, on the same SQL
 * adapters), its statements in a unit of work of this thread's database: its CPU work and its heap
 * (gigabytes at a million rows, seconds of collections) stay off the thread that answers every other
 * request, `/health/live` included. The thread ends with its import, and its memory with it. An upload
 * under `importThreadMinBytes` is imported here: a thread loads its own copy of the service's modules
 * (~95 MB, about a second), more than such an import holds the event loop up (docs/operations.md
 * "Large uploads on a thread of their own"). Where the program is not built (tests run from the
 * sources), every import runs here.
 */
@Injectable()
export class ThreadedImports {
  private readonly logger = new Logger(ThreadedImports.name);

  constructor(
    private readonly database: Database,
    private readonly inProcess: ImportBrokerageFiles,
    private readonly ledgerNotices: TradeLedgerNotices,
    private readonly config: AppConfig,
  ) {}

  /** Whether an import of files of `bytes` bytes in all runs on a thread of its own (an upload's declared length bounds its files'). */
  runsOnThread(bytes: number): boolean {
    return this.canStartThreads() && bytes >= this.config.importThreadMinBytes;
  }

  /**
   * Starts the thread an upload whose declared length is `declaredBytes` will be imported on
   * (`runsOnThread`), while its files arrive: the thread's program takes about a second to load, which
   * otherwise came after the upload's last byte. Undefined for an upload imported here. Whoever starts
   * it ends it (`StartedThread.end`) once the upload is over, imported or refused.
   */
  startFor(declaredBytes: number): StartedThread | undefined {
    return this.runsOnThread(declaredBytes) ? new StartedThread(this.startThread(), this.logger) : undefined;
  }

  /**
   * Imports the upload: on a thread of its own from `importThreadMinBytes` of files on (the thread
   * `startFor` started for it, else one started now), else here. A thread started for it that the
   * files turn out too small for is ended.
   */
  async run(request: ImportRequest, progress: ProgressListener, started?: StartedThread): Promise<ImportOutcome> {
    const bytes = uploadBytes(request);
    if (!this.runsOnThread(bytes)) {
      started?.end();
      return this.inProcess.run(request, progress);
    }
    // The first step is told as the thread starts, not once its program has loaded; the thread's telling of it is not repeated.
    const [starting] = IMPORT_STEPS;
    await progress(starting);
    this.logger.log({ msg: 'import on a thread of its own', user: request.userId, bytes });
    const thread = started ?? new StartedThread(this.startThread(), this.logger);
    const worker = thread.worker;
    const host = serveThreadDatabase(worker, this.database, {
      calls: {
        [THREAD_CALLS.progress]: async (step: Parameters<ProgressListener>[0]) => {
          if (step.percentage !== starting.percentage) await progress(step);
        },
        [THREAD_CALLS.accountFor]: async (number: string) => {
          if (request.accountFor === undefined) throw new Error('this import creates no account');
          return request.accountFor(number);
        },
      },
      tells: {
        ...this.ledgerNotices.handlers(),
        [THREAD_CALLS.log]: (level: ThreadLogLevel, message: unknown, context: string | undefined) => {
          if (LOG_LEVELS.has(level)) new Logger(context ?? ThreadedImports.name)[level](message);
        },
      },
    });
    const outcome = new Promise<ImportOutcome>((resolve, reject) => {
      worker.on('message', (message: FromImportThread | { kind: string }) => {
        if (message.kind === 'outcome') resolve((message as FromImportThread & { kind: 'outcome' }).outcome);
        else if (message.kind === 'failed') reject(fromThreadError((message as FromImportThread & { kind: 'failed' }).error, IMPORT_ERROR_CLASSES));
      });
      thread.ended.catch(reject);
    });
    const { sent, transfer } = threadRequestOf(request);
    worker.postMessage({ kind: 'run', request: sent } satisfies ToImportThread, transfer);
    // What the upload left here (the body's chunks, the text decoded to check it) is garbage now, which
    // nothing would collect while the import runs there: hundreds of MB at a million rows.
    collectGarbageAbove(HANDED_OVER_HEAP_BYTES);
    let ended: Error = THREAD_DONE;
    try {
      return await outcome;
    } catch (error) {
      ended = error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      // A thread that failed (not its import) may have left a unit of work open here: rolled back.
      await host.close(ended);
      thread.end();
    }
  }

  /** Whether the thread's program is there to start (a spec of the sources runs both ends on one thread instead). */
  protected canStartThreads(): boolean {
    return PROGRAM_BUILT;
  }

  protected startThread(): ImportThread {
    return new Worker(PROGRAM);
  }
}

/**
 * An import's thread, started (its program loading) before the import is sent to it. While it runs,
 * V8 lets heaps grow less between full collections (`narrowHeapGrowth`): the thread's import is one
 * of a million rows or so, whose garbage would otherwise add hundreds of MB to the service's peak.
 */
export class StartedThread {
  /** Rejected when the thread fails or exits (once ended too): whatever import it runs fails with it. */
  readonly ended: Promise<never>;
  private ending = false;
  private readonly widenHeapGrowth = narrowHeapGrowth();

  constructor(
    readonly worker: ImportThread,
    private readonly logger: Logger,
  ) {
    // Listened to from the start: a thread that fails while the files still arrive (or that is ended
    // with no import sent) must not be an unheard 'error' event.
    this.ended = new Promise<never>((_, reject) => {
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the import's thread ended before its import (exit code ${code})`)));
    });
    this.ended.catch(() => undefined);
  }

  /** Ends the thread (again: nothing more). */
  end(): void {
    if (this.ending) return;
    this.ending = true;
    this.widenHeapGrowth();
    this.worker.terminate().catch((error: unknown) => this.logger.warn(`could not end an import's thread: ${String(error)}`));
  }
}

/** The bytes of all of an upload's files. */
function uploadBytes(request: ImportRequest): number {
  return importParts(request).reduce((sum, part) => sum + part.transactions.content.length + (part.gains?.content.length ?? 0), 0);
}

/**
 * The request as the thread is sent it: the files' bytes, handed over. The thread decodes them again
 * (a million rows: a second there) rather than be sent their text: cloning it held this thread 0.1 s.
 * A file the upload checked as it arrived goes as its pieces, views of blocks the thread takes over.
 */
function threadRequestOf(request: ImportRequest): { sent: ThreadImportRequest; transfer: ArrayBuffer[] } {
  const transfer: ArrayBuffer[] = [];
  const sent = (file: UploadedFile): ThreadFile => {
    const bytes = file.content;
    file.content = EMPTY_FILE;
    if (bytes instanceof CheckedCsvBytes) {
      const pieces = bytes.take();
      for (const block of new Set(pieces.map((piece) => piece.buffer as ArrayBuffer))) transfer.push(block);
      return { name: file.name, checked: true, pieces };
    }
    forgetDecodedCsvText(bytes); // the pieces the receiver decoded, never joined here
    // Bytes that share their buffer (a pool's, a larger body's) are copied; a file's own buffer is handed over.
    const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    const content = own ? bytes : new Uint8Array(bytes);
    transfer.push(content.buffer as ArrayBuffer);
    return { name: file.name, checked: false, content };
  };
  const parts = importParts(request).map((part) => ({ transactions: sent(part.transactions), gains: part.gains === null ? null : sent(part.gains) }));
  return {
    sent: { userId: request.userId, account: request.account, accountNumber: request.accountNumber, createsAccounts: request.accountFor !== undefined, parts },
    transfer,
  };
}

const EMPTY_FILE = Buffer.alloc(0);

/** What a thread's units of work left open, if any, are failed with once its import has answered. */
const THREAD_DONE = new Error("the import's thread has ended");

/** The heap (live and garbage) this thread may keep once an upload is handed over, before it is collected. */
const HANDED_OVER_HEAP_BYTES = 256 * 1024 * 1024;
