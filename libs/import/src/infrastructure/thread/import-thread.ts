import type { LoggerService } from '@nestjs/common';
import { ThreadDatabase, TypeOrmUnitOfWork, type Database, type ThreadPort } from '@app/persistence/sql';
import { DOMAIN_ERROR_CLASSES, errorClasses, toThreadError, type ThreadError } from '@app/shared';
import { threadTradeLedger } from '@app/trades/ledger';
import { ImportBrokerageFiles, type ImportAccount, type ImportOutcome, type ImportRequest, type UploadedFile } from '../../application/import-brokerage-files.service.js';
import { ImportFileError } from '../../domain/import.errors.js';
import { CheckedCsvBytes } from '../../domain/parsers/csv-text.js';
import { SqlImportStore } from '../persistence/sql-import.store.js';
import { SqlUploadHistory } from '../persistence/sql-upload-history.js';

/** The errors an import's answer depends on, made again as their classes on the other side. */
export const IMPORT_ERROR_CLASSES = errorClasses(...DOMAIN_ERROR_CLASSES, ImportFileError);

/**
 * A file as it is sent to the thread, handed over (not copied): its bytes, or the pieces of a file the
 * upload checked as it arrived (`CheckedCsvArrival`), views of its blocks.
 */
export type ThreadFile = { name: string; checked: false; content: Uint8Array } | { name: string; checked: true; pieces: Uint8Array[] };

/** `ImportRequest` as it is sent to the thread: `accountFor` becomes a call back to the main thread. */
export interface ThreadImportRequest {
  userId: number;
  account: ImportAccount;
  accountNumber: string | undefined;
  createsAccounts: boolean;
  parts: { transactions: ThreadFile; gains: ThreadFile | null }[];
}

export type ToImportThread = { kind: 'run'; request: ThreadImportRequest };
export type FromImportThread = { kind: 'outcome'; outcome: ImportOutcome } | { kind: 'failed'; error: ThreadError };

/** The names of the thread's calls and notices to the main thread (`ThreadedImports` answers them). */
export const THREAD_CALLS = { progress: 'progress', accountFor: 'account-for', log: 'log' } as const;

/**
 * The import's side of its thread: the use case over the same SQL adapters as on the main thread,
 * whose statements run there (`ThreadDatabase`). Runs the import it is sent and answers its outcome,
 * or its error. Answers the thread's database, for its log lines (`ThreadLogger`).
 */
export function runImportsFrom(port: ThreadPort): ThreadDatabase {
  const threadDatabase = new ThreadDatabase(port, IMPORT_ERROR_CLASSES);
  // The adapters use of a Database only what ThreadDatabase has (`manager.query`, units of work, copies).
  const database = threadDatabase as unknown as Database;
  const importer = new ImportBrokerageFiles(new TypeOrmUnitOfWork(database), new SqlImportStore(database), threadTradeLedger(threadDatabase), new SqlUploadHistory(database));
  port.on('message', (message: ToImportThread | { kind: string }) => {
    if (message.kind !== 'run') return;
    const request = importRequestOf((message as ToImportThread).request, threadDatabase);
    importer.run(request, (step) => threadDatabase.call(THREAD_CALLS.progress, step)).then(
      (outcome) => port.postMessage({ kind: 'outcome', outcome } satisfies FromImportThread),
      (error: unknown) => port.postMessage({ kind: 'failed', error: toThreadError(error) } satisfies FromImportThread),
    );
  });
  return threadDatabase;
}

function importRequestOf(sent: ThreadImportRequest, database: ThreadDatabase): ImportRequest {
  const [first, ...also] = sent.parts.map((part) => ({ transactions: uploadedFile(part.transactions), gains: part.gains === null ? null : uploadedFile(part.gains) }));
  return {
    userId: sent.userId,
    account: sent.account,
    ...first,
    also,
    ...(sent.accountNumber === undefined ? {} : { accountNumber: sent.accountNumber }),
    ...(sent.createsAccounts ? { accountFor: (number: string) => database.call<ImportAccount>(THREAD_CALLS.accountFor, number) } : {}),
  };
}

/** A file sent: a checked one's pieces, decoded only as they are read; any other file read from its bytes as on the main thread. */
function uploadedFile(sent: ThreadFile): UploadedFile {
  if (sent.checked) return { name: sent.name, content: CheckedCsvBytes.ofPieces(sent.pieces) };
  return { name: sent.name, content: Buffer.from(sent.content.buffer, sent.content.byteOffset, sent.content.byteLength) };
}

/** Log lines of the thread, written by the main thread's logger (one format, one destination). */
export class ThreadLogger implements LoggerService {
  constructor(private readonly database: ThreadDatabase) {}

  log(message: unknown, ...params: unknown[]): void {
    this.tell('log', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.tell('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.tell('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.tell('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.tell('verbose', message, params);
  }

  /** Nest passes a logger's context last (after an error's stack). */
  private tell(level: ThreadLogLevel, message: unknown, params: readonly unknown[]): void {
    const context = params.at(-1);
    this.database.tell(THREAD_CALLS.log, level, message, typeof context === 'string' ? context : undefined);
  }
}

export type ThreadLogLevel = 'log' | 'error' | 'warn' | 'debug' | 'verbose';
