import { setImmediate as nextTurn } from 'node:timers/promises';
import { Injectable, Logger } from '@nestjs/common';
import { UnitOfWork } from '@app/persistence';
import { DomainError } from '@app/shared/domain';
import { TradeLedger } from '@app/trades';
import { withLotFingerprints, withTransactionFingerprints } from '../domain/fingerprint.js';
import { matchTrades, type MatchResult } from '../domain/hybrid-matcher.js';
import { ImportFileError } from '../domain/import.errors.js';
import { decodeCsvText } from '../domain/parsers/csv-text.js';
import { brokerageFormats, parseRealizedLotsFile, parseTransactionsFile } from '../domain/parsers/format-registry.js';
import type { Turns } from '../domain/turns.js';
import { unknownActionWarnings } from '../domain/unknown-actions.js';
import { ImportStore, type StoredRows as Rows } from './import-store.port.js';
import { UploadHistory } from './upload-history.port.js';

export interface UploadedFile {
  name: string;
  content: Buffer;
}

export interface ImportRequest {
  userId: number;
  account: { accountId: number; accountNumber: string };
  transactions: UploadedFile;
  /** The broker's realized lots; null where the broker gives none (every trade is then FIFO). */
  gains: UploadedFile | null;
}

export interface ImportStats {
  transactions_inserted: number;
  realized_gains_lots: number;
  broker_verified_trades: number;
}

/** The contract's progress steps, in order (../shared/spec/interface.md "Events"). */
export const IMPORT_STEPS = [
  { percentage: 25, message: 'Starting data processing...' },
  { percentage: 40, message: 'Processing transaction history and realized gains...' },
  { percentage: 60, message: 'Synchronizing with database...' },
  { percentage: 80, message: 'Finalizing data import...' },
] as const;

/** What the import found in one file: its layout and how many rows it read. */
export interface DetectedFile {
  file: string;
  broker: string;
  kind: 'transactions' | 'realized-lots';
  rows: number;
}

export interface ImportOutcome {
  stats: ImportStats;
  detected: DetectedFile[];
  /** What the matching noticed but worked around (a sale with no prior purchase, lots that do not add up …). */
  warnings: string[];
}

export type ProgressListener = (step: (typeof IMPORT_STEPS)[number]) => Promise<void>;

/** The two refusals that come before any stream starts (../shared/spec/interface.md "Data import"). */
export const FILES_REQUIRED = 'Both transaction history and realized gains files are required';
export const FILES_MUST_BE_CSV = 'Both files must be CSV files';

/**
 * Imports a Schwab transactions file and its realized gain/loss lot details into an account, all or
 * nothing: new raw rows are stored by natural key, then the account's trades, dividends and positions
 * are recomputed from everything it holds and handed to the trade ledger, in one transaction. Every
 * attempt leaves a history row.
 */
@Injectable()
export class ImportBrokerageFiles {
  private readonly logger = new Logger(ImportBrokerageFiles.name);

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly store: ImportStore,
    private readonly ledger: TradeLedger,
    private readonly history: UploadHistory,
  ) {}

  /**
   * The checks that answer a plain 400 before the stream starts: a `.csv` name and text content.
   * Throws an ImportFileError whose message is exactly the contract's sentence and whose `detail` names
   * the file and the reason.
   */
  precheck(files: readonly UploadedFile[], heading: string = FILES_MUST_BE_CSV): void {
    for (const file of files) {
      if (!/\.csv$/i.test(file.name)) {
        throw ImportFileError.notCsvName(file.name).underHeading(heading);
      }
      try {
        decodeCsvText(file.name, file.content);
      } catch (error) {
        if (error instanceof ImportFileError) throw error.underHeading(heading);
        throw error;
      }
    }
  }

  async run(request: ImportRequest, progress: ProgressListener): Promise<ImportOutcome> {
    const counts = { transactionsProcessed: 0, transactionsInserted: 0, realizedGainsLots: 0, brokerVerifiedTrades: 0, monthsUpdated: 0 };
    const started = Date.now();
    let trades = 0;
    let uploadId: number | undefined;
    try {
      await progress(IMPORT_STEPS[0]);
      // The file's rows are much of an import's memory: taken out of `read` once, they are let go as
      // soon as they have been used.
      const read: { incoming?: Rows; fileWarnings: string[]; detected: DetectedFile[] } = await this.readFiles(request, counts, progress);
      const take = () => {
        const rows = read.incoming;
        if (rows === undefined) throw new Error('the uploaded rows have been imported already');
        delete read.incoming;
        return rows;
      };
      await progress(IMPORT_STEPS[2]);
      let warnings: string[] = [];
      await this.unitOfWork.run(async () => {
        uploadId = await this.history.reserveId();
        await this.store.lockAccount(request.account.accountId);
        const current = await this.storeAndMatch(request.account.accountId, uploadId, take, counts);
        const { monthsChanged } = await this.ledger.replaceAccount(request.userId, request.account.accountId, {
          trades: current.trades,
          dividends: current.dividends,
          positions: current.positions.entries(),
          companyNames: current.companyNames,
          openLots: current.openLots.map((lot) => ({
            symbol: lot.symbol,
            side: lot.side,
            openDate: lot.openDate,
            shares: lot.quantity,
            cost: lot.amount,
            price: lot.txPrice,
            source: lot.source,
          })),
        });
        counts.brokerVerifiedTrades = current.stats.brokerVerifiedTrades;
        trades = current.trades.length;
        counts.monthsUpdated = monthsChanged.length;
        warnings = [...read.fileWarnings, ...current.warnings.map((warning) => warning.message)];
        await progress(IMPORT_STEPS[3]);
        await this.history.record({ ...this.describe(request), ...counts, id: uploadId, status: 'success' });
      });
      this.logger.log({ msg: 'import succeeded', ...this.outcome(request, counts, started), trades });
      const stats = {
        transactions_inserted: counts.transactionsInserted,
        realized_gains_lots: counts.realizedGainsLots,
        broker_verified_trades: counts.brokerVerifiedTrades,
      };
      return { stats, warnings, detected: read.detected };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // A file the import refuses is the trader's to fix (info); anything else is the operator's (error).
      const failed = { msg: 'import failed', ...this.outcome(request, counts, started), error: message };
      if (error instanceof DomainError) this.logger.log(failed);
      else this.logger.error(failed);
      await this.history
        .record({ ...this.describe(request), ...counts, transactionsInserted: 0, monthsUpdated: 0, id: uploadId, status: 'failed', error: message })
        .catch((recordError: unknown) => this.logger.warn(`could not record the failed upload: ${String(recordError)}`));
      throw error;
    }
  }

  /**
   * Step 1: the two files as rows with their natural keys, and the warnings about the file itself.
   * This is CPU work on the event loop: it gives the loop a turn every few thousand rows, so other
   * users' requests (and the health probes) are answered while a large file is read.
   */
  private async readFiles(request: ImportRequest, counts: { transactionsProcessed: number; realizedGainsLots: number }, progress: ProgressListener) {
    const transactionsFile = await parseTransactionsFile(request.transactions.name, request.transactions.content, undefined, TURNS);
    const parsed = transactionsFile.transactions;
    const fileWarnings = unknownActionWarnings(request.transactions.name, parsed);
    const lotsFile = request.gains === null ? null : await parseRealizedLotsFile(request.gains.name, request.gains.content, undefined, TURNS);
    // A layout may carry its own closed lots beside the trades (Interactive Brokers).
    const lots = [...(transactionsFile.lots ?? []), ...(lotsFile?.lots ?? [])];
    const detected = [transactionsFile, ...(lotsFile === null ? [] : [lotsFile])].map((file) => ({
      file: file.fileName,
      broker: brokerOf(file.format.id),
      kind: file.kind,
      rows: file.dataRows,
    }));
    counts.transactionsProcessed = parsed.length;
    counts.realizedGainsLots = lots.length;
    await progress(IMPORT_STEPS[1]);
    const accountKey = String(request.account.accountId);
    const incoming: Rows = {
      transactions: await withTransactionFingerprints(accountKey, parsed, TURNS),
      lots: await withLotFingerprints(accountKey, lots, TURNS),
    };
    return { incoming, fileWarnings, detected };
  }

  /**
   * Step 2, under the account lock: stores the rows the account does not hold yet, and matches the
   * trades of everything it holds then. The new rows are written while the trades are matched:
   * matching needs no database, and the database (a server, or the embedded engine's process) works
   * on another core meanwhile; matching in slices gives the event loop a turn now and then to feed it.
   * A failed write fails the unit of work, which waits for the write before it ends.
   */
  private async storeAndMatch(accountId: number, uploadId: number, take: () => Rows, counts: { transactionsInserted: number }): Promise<MatchResult> {
    const stored = await this.store.loadRows(accountId);
    const incoming = take();
    const added: Rows = { transactions: notStoredYet(incoming.transactions, stored.transactions), lots: notStoredYet(incoming.lots, stored.lots) };
    const written = this.store.addRows(accountId, uploadId, added);
    const current = await matchTrades([...stored.transactions, ...added.transactions], [...stored.lots, ...added.lots], TURNS);
    [counts.transactionsInserted] = await written;
    return current;
  }

  /** What the log says about an import: whose, how large, how long; no file content. */
  private outcome(request: ImportRequest, counts: { transactionsProcessed: number; realizedGainsLots: number; transactionsInserted: number }, started: number) {
    return {
      user: request.userId,
      account: request.account.accountId,
      rows: counts.transactionsProcessed + counts.realizedGainsLots,
      newTransactions: counts.transactionsInserted,
      ms: Date.now() - started,
    };
  }

  private describe(request: ImportRequest) {
    return {
      userId: request.userId,
      accountId: request.account.accountId,
      brokerageAccount: request.account.accountNumber,
      transactionFile: { name: request.transactions.name, size: request.transactions.content.length },
      gainsFile: { name: request.gains?.name ?? '', size: request.gains?.content.length ?? 0 },
    };
  }
}

/** Where the import's CPU work stops for a turn of the event loop. */
const TURNS: Turns = { pause: () => nextTurn() };

/** The rows whose natural key is not among the stored ones. */
function notStoredYet<T extends { fingerprint?: string }>(rows: readonly T[], stored: readonly T[]): T[] {
  const known = new Set(stored.map((row) => row.fingerprint));
  return rows.filter((row) => !known.has(row.fingerprint));
}

/** The broker of a layout, by its id. */
function brokerOf(formatId: string): string {
  return brokerageFormats.layouts.find((layout) => layout.id === formatId)?.broker ?? formatId;
}
