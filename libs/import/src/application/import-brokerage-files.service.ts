import { Injectable, Logger } from '@nestjs/common';
import { UnitOfWork } from '@app/persistence/sql';
import { BatchFeed, collectGarbageAbove, turnIfDue } from '@app/shared';
import { DomainError, type IsoDate } from '@app/shared/domain';
import { TradeLedger, type AccountLedger, type LedgerRest, type StoredOpenLots, type WantedBook } from '@app/trades/ledger';
import { hasNaturalKey, keyedAsRead, keyingSteps, lotKeying, naturalKeyOf, transactionKeying, type RowKeying } from '../domain/fingerprint.js';
import { mappingSteps } from '../domain/group-by.js';
import { matchTrades, symbolKey, type MatchResult } from '../domain/hybrid-matcher.js';
import type { MatchedTrade } from '../domain/matched-trade.js';
import { ImportFileError } from '../domain/import.errors.js';
import { CheckedCsvBytes, checkCsvTextInTurns, hasCsvName } from '../domain/parsers/csv-text.js';
import { withUnknownDays, type FileDays, type SeenDays } from '../domain/parsers/file-days.js';
import { ghostfolioExportAsCsv, hasJsonName } from '../domain/parsers/ghostfolio-export.js';
import { brokerageFormats, parseRealizedLotsFile, parseTransactionsFile } from '../domain/parsers/format-registry.js';
import type { BrokerTransaction } from '../domain/broker-transaction.js';
import type { ParsedTransactionsFile } from '../domain/parsers/brokerage-format.js';
import type { RealizedLot } from '../domain/realized-lot.js';
import { ROWS_PER_TURN, runStepsWithTurns, type Steps, type Turns } from '../domain/turns.js';
import { unknownActionWarningSteps } from '../domain/unknown-actions.js';
import { ImportStore, type RowDays, type StoredRows as Rows } from './import-store.port.js';
import { UploadHistory } from './upload-history.port.js';

export interface UploadedFile {
  name: string;
  /**
   * The file's bytes. `ImportBrokerageFiles.run` lets go of them as it starts the file's parse (it sets
   * an empty buffer): an upload's largest buffers need not outlive their decoding (docs/imports.md).
   * On an import's thread, a file the upload's check passed is in pieces, decoded as read (`CheckedCsvBytes`).
   */
  content: Buffer | CheckedCsvBytes;
}

/** One history of an upload, with that broker's realized lots where it gives them. */
export interface ImportPart {
  transactions: UploadedFile;
  /** The broker's realized lots; null where the broker gives none (every trade is then FIFO). */
  gains: UploadedFile | null;
}

export interface ImportAccount {
  accountId: number;
  accountNumber: string;
}

export interface ImportRequest extends ImportPart {
  userId: number;
  /** Where the files go when neither they nor the upload name an account: the default account. */
  account: ImportAccount;
  /** The account the upload names (`/api/import`'s `account` field): used for files that carry none. */
  accountNumber?: string;
  /**
   * The user's account with a number (found, or created inside the import's unit of work, so a failed
   * import leaves none behind). Without it every file goes to `account`, whatever account it names.
   */
  accountFor?: (accountNumber: string) => Promise<ImportAccount>;
  /** Further histories of the same upload (other accounts): all of them are imported, or none. */
  also?: readonly ImportPart[];
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

/** What the import found in one file: its layout, how many rows it read and the account it went to. */
export interface DetectedFile {
  file: string;
  broker: string;
  kind: 'transactions' | 'realized-lots';
  rows: number;
  account: string;
}

export interface ImportOutcome {
  stats: ImportStats;
  detected: DetectedFile[];
  /** What the matching noticed but worked around (a sale with no prior purchase, lots that do not add up …). */
  warnings: string[];
}

/** One file as an import would read it (`preview`); `error` says why it would be refused. */
export interface FilePreview {
  file: string;
  broker: string | null;
  label: string | null;
  kind: 'transactions' | 'realized-lots' | null;
  rows: number | null;
  /** The account number the file carries, if its layout has one. */
  accountNumber: string | null;
  error: string | null;
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
   * the file and the reason. A file is decoded here a slice at a time (the later readings find its text
   * decoded) unless it was as it arrived, so a large upload does not hold other requests up while it is decoded.
   * With `takesExports` (`POST /api/import`), a `.json` file is read as Ghostfolio's export, refused in its
   * own words when it is not one. Resolves with the files as the import reads them.
   */
  async precheck<F extends UploadedFile>(files: readonly F[], heading: string = FILES_MUST_BE_CSV, takesExports = false): Promise<F[]> {
    const checked: F[] = [];
    for (const file of files) {
      // A Ghostfolio export is read as the CSV of its activities; what is wrong with it is said in its own words.
      if (takesExports && hasJsonName(file.name)) {
        const readable = asActivitiesCsv(file);
        await checkCsvTextInTurns(readable.name, readable.content, turnIfDue);
        checked.push(readable);
        continue;
      }
      if (!hasCsvName(file.name)) {
        throw ImportFileError.notCsvName(file.name).underHeading(heading);
      }
      try {
        await checkCsvTextInTurns(file.name, file.content, turnIfDue);
      } catch (error) {
        if (error instanceof ImportFileError) throw error.underHeading(heading);
        throw error;
      }
      checked.push(file);
    }
    return checked;
  }

  /**
   * What an import would read in each file, without importing anything: its layout, the rows it holds
   * and the account number it carries, or why it would be refused (`GET`-like: nothing is written);
   * and the files as the import reads them (a Ghostfolio export as the CSV of its activities).
   */
  async preview<F extends UploadedFile>(files: readonly F[]): Promise<{ previews: FilePreview[]; readable: F[] }> {
    const previews: FilePreview[] = [];
    const readables: F[] = [];
    for (const file of files) {
      try {
        const json = hasJsonName(file.name);
        if (!json && !hasCsvName(file.name)) throw ImportFileError.notCsvName(file.name);
        const readable = json ? asActivitiesCsv(file) : file;
        readables.push(readable);
        const parsed = await runStepsWithTurns(brokerageFormats.parsing(readable.name, readable.content), TURNS);
        previews.push({
          file: file.name,
          broker: brokerOf(parsed.format.id),
          label: parsed.format.label,
          kind: parsed.kind,
          rows: parsed.dataRows,
          accountNumber: parsed.kind === 'transactions' ? (parsed.accountNumber ?? null) : null,
          error: null,
        });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        previews.push({ file: file.name, broker: null, label: null, kind: null, rows: null, accountNumber: null, error: error.message });
      }
    }
    return { previews, readable: readables };
  }

  async run(request: ImportRequest, progress: ProgressListener): Promise<ImportOutcome> {
    const parts = importParts(request).map((part) => ({
      part,
      sizes: { transactions: part.transactions.content.length, gains: part.gains?.content.length ?? 0 },
      account: request.account,
      uploadId: undefined as number | undefined,
      appended: false,
      knownRows: 0,
      counts: { transactionsProcessed: 0, transactionsInserted: 0, realizedGainsLots: 0, brokerVerifiedTrades: 0, monthsUpdated: 0 },
    }));
    const started = Date.now();
    let trades = 0;
    try {
      await progress(IMPORT_STEPS[0]);
      const seen = await this.store.seenDays(request.userId);
      const reads: ReadFiles[] = [];
      for (const entry of parts) reads.push(await this.readFiles(entry.part, entry.counts, seen));
      await progress(IMPORT_STEPS[1]);
      await progress(IMPORT_STEPS[2]);
      const warnings: string[] = [];
      await this.unitOfWork.run(async () => {
        for (const [index, entry] of parts.entries()) entry.account = await this.accountOf(request, reads[index].accountNumber);
        // Accounts are locked in one order, so two uploads into the same accounts cannot deadlock.
        for (const accountId of [...new Set(parts.map((entry) => entry.account.accountId))].sort((a, b) => a - b)) {
          await this.store.lockAccount(accountId);
        }
        for (const [index, entry] of parts.entries()) {
          entry.uploadId = await this.history.reserveId();
          const matched = await this.storeAndMatch(request.userId, entry.uploadId, reads[index], entry.account);
          for (const days of Object.values(reads[index].fileDays)) {
            if (days !== undefined) await this.store.recordDays(entry.account.accountId, days.layout, days.digests);
          }
          const { accountId } = entry.account;
          // An upload the account holds every row of changes nothing: its reports (and their caches) stay as they are.
          // A whole history matched again has its trades written as they are made (`tradesAsMade`).
          const change = matched.unchanged
            ? Promise.resolve({ monthsChanged: [] })
            : matched.after === null
              ? this.ledger.replaceAccount(request.userId, accountId, { trades: matched.tradesAsMade, rest: matched.result.then(ledgerRestOf) })
              : matched.result.then(async (result) => this.ledger.appendToAccount(request.userId, accountId, { ...(await ledgerOf(result)), after: matched.after, symbols: matched.symbols, from: matched.from }));
          // Whichever fails first is told: a failed matching fails the write of its trades after it.
          const [current, { monthsChanged }] = await Promise.all([matched.result, change]);
          [entry.counts.transactionsInserted] = await matched.written;
          entry.counts.brokerVerifiedTrades = matched.brokerTradesBefore + current.stats.brokerVerifiedTrades;
          entry.counts.monthsUpdated = monthsChanged.length;
          entry.appended = matched.after !== null;
          entry.knownRows = matched.knownRows;
          trades += current.stats.brokerVerifiedTrades + current.stats.fifoTrades;
          for (const warning of matched.fileWarnings) warnings.push(warning);
          for (const warning of current.warnings) warnings.push(warning.message);
        }
        await progress(IMPORT_STEPS[3]);
        for (const entry of parts) {
          await this.history.record({ ...this.describe(request.userId, entry.account, entry), ...entry.counts, id: entry.uploadId, status: 'success' });
        }
      });
      const total = sumCounts(parts.map((entry) => entry.counts));
      // `appended`: the accounts whose import went on from their stored books instead of matching everything again.
      const appended = parts.filter((entry) => entry.appended).length;
      // `knownRows`: the rows of days the account held byte for byte, not read again (file-days.ts).
      const knownRows = parts.reduce((sum, entry) => sum + entry.knownRows, 0);
      this.logger.log({ msg: 'import succeeded', ...this.outcome(request.userId, parts.map((entry) => entry.account), total, started), trades, appended, knownRows });
      const stats = {
        transactions_inserted: total.transactionsInserted,
        realized_gains_lots: total.realizedGainsLots,
        broker_verified_trades: total.brokerVerifiedTrades,
      };
      const detected = parts.flatMap((entry, index) => reads[index].detected.map((file) => ({ ...file, account: entry.account.accountNumber })));
      return { stats, warnings: listedWarnings(warnings), detected };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // A file the import refuses is the trader's to fix (info); anything else is the operator's (error).
      const failed = { msg: 'import failed', ...this.outcome(request.userId, parts.map((entry) => entry.account), sumCounts(parts.map((entry) => entry.counts)), started), error: message };
      if (error instanceof DomainError) this.logger.log(failed);
      else this.logger.error(failed);
      for (const entry of parts) {
        // An account this import created was rolled back with it: the record keeps the number, on the default account.
        const account = { accountId: request.account.accountId, accountNumber: entry.account.accountNumber };
        const record = { ...this.describe(request.userId, account, entry), ...entry.counts, transactionsInserted: 0, monthsUpdated: 0 };
        await this.history
          .record({ ...record, id: entry.uploadId, status: 'failed', error: message })
          .catch((recordError: unknown) => this.logger.warn(`could not record the failed upload: ${String(recordError)}`));
      }
      throw error;
    } finally {
      // A very large import leaves gigabytes of garbage (its rows, matches and texts for COPY): collected
      // once it has answered, not when the next requests' allocations get round to it (docs/imports.md).
      collectGarbageAbove(LEFT_HEAP_BYTES);
    }
  }

  /**
   * A file's account: the number it carries, else the one the upload names, else the default. Without
   * `accountFor` (the contract's `/api/upload-csv`) every file goes to the profile's account.
   */
  private async accountOf(request: ImportRequest, carried: string | null): Promise<ImportAccount> {
    if (request.accountFor === undefined) return request.account;
    const number = carried ?? request.accountNumber ?? null;
    if (number === null || number === request.account.accountNumber) return request.account;
    return request.accountFor(number);
  }

  /**
   * Step 1: the transactions file as rows; their natural keys once the account is known
   * (`takeTransactions`), and the lots (`takeLots`), whose file is read only when they are asked for:
   * under the account lock, so that a first import's lots go to the database while it is read. A
   * transactions layout that names no account and whose rows are final as read (`readsUnderLock`:
   * Schwab's) is read only when they are asked for too, so that a first import writes them while they
   * are read. The import takes the lots first: of the files that wait unread, the lots file is the
   * larger (a Schwab lot row is twice a transaction's bytes), and its bytes no longer wait beside the
   * transactions read so far (a million rows: 135 MB). The lots a history carries itself are keyed
   * first whichever is taken first: they are read before the lock, or the layout carries none. The
   * rows of days the user's imports read before (`seen`) are put aside unread: the `take…` read those
   * of them the account does not hold byte for byte (file-days.ts). This is CPU work on the event
   * loop: it gives the loop a turn every 10 ms of it, so other users' requests (and the health probes)
   * are answered while a large file is read.
   */
  private async readFiles(part: ImportPart, counts: { transactionsProcessed: number; realizedGainsLots: number }, seen: SeenDays): Promise<ReadFiles> {
    const detected: ReadFiles['detected'] = [];
    const fileDays: ReadFiles['fileDays'] = {};
    // A layout may carry its own closed lots beside the trades (Interactive Brokers).
    let carriedLots: RealizedLot[] = [];
    let transactionsTaken = false;
    let lotsTaken = false;
    const readTransactions = async (transactionsSoFar?: (rows: readonly BrokerTransaction[]) => void): Promise<ParsedTransactionsFile> => {
      const file = await parseTransactionsFile(part.transactions.name, takeContent(part.transactions), undefined, TURNS, seen, transactionsSoFar);
      // The lots taken before were keyed without those of a layout read under the lock: it carries none.
      if (lotsTaken && file.lots !== undefined && file.lots.length > 0) throw new Error('a layout read under the account lock carries lots');
      detected.unshift(detectedFile(file)); // the transactions file first, whichever was read first
      carriedLots = file.lots ?? [];
      counts.transactionsProcessed = file.transactions.length + (file.days?.waitingRows ?? 0);
      counts.realizedGainsLots += carriedLots.length;
      fileDays.transactions = file.days;
      return file;
    };
    // The file's rows are much of an import's memory: taken once, they are let go as soon as used.
    let unread: ParsedTransactionsFile | undefined = readsUnderLock(part.transactions) ? undefined : await readTransactions();
    const accountNumber = unread?.accountNumber ?? null;
    const takeTransactions = async (
      account: ImportAccount,
      knownOf: (days: FileDays<BrokerTransaction> | undefined) => Promise<ReadonlySet<IsoDate>>,
      keyedSoFar?: (batch: readonly BrokerTransaction[]) => void,
    ): Promise<KeyedRows<BrokerTransaction>> => {
      if (transactionsTaken) throw new Error('the uploaded rows have been imported already');
      transactionsTaken = true;
      const keying = transactionKeying(String(account.accountId));
      // Read now, a layout that `readsUnderLock` has its rows keyed as they are read (see `takeLots`).
      const file = unread ?? (await readTransactions(keyedSoFar && keyedAsRead(keying, keyedSoFar)));
      unread = undefined;
      const transactions = await runStepsWithTurns(withUnknownDays(file.transactions, fileDays.transactions, await knownOf(fileDays.transactions)), TURNS);
      const keyed = keyedRest(keying, transactions.rows, keyedSoFar);
      return {
        rows: keyed,
        days: await runStepsWithTurns(daysOf(transactions.rows, (row) => row.date), TURNS),
        fileWarnings: await runStepsWithTurns(unknownActionWarningSteps(part.transactions.name, transactions.rows), TURNS),
        knownRows: transactions.knownRows,
      };
    };
    const takeLots = async (
      account: ImportAccount,
      knownOf: (days: FileDays<RealizedLot> | undefined) => Promise<ReadonlySet<IsoDate>>,
      keyedSoFar?: (batch: readonly RealizedLot[]) => void,
    ): Promise<KeyedRows<RealizedLot>> => {
      if (lotsTaken) throw new Error('the uploaded lots have been imported already');
      lotsTaken = true;
      // The lots are keyed in the order the history's own and then the file's come, as one file's rows.
      const keying = lotKeying(String(account.accountId));
      // Told as it is read, the file's lots are keyed a step at a time (the history's own first): a
      // day is put aside whole or not at all, so each day's rows are keyed in file order either way.
      if (keyedSoFar !== undefined) await runStepsWithTurns(keyingSteps(keying, carriedLots, keyedSoFar), TURNS);
      const lotsSoFar = keyedSoFar && keyedAsRead(keying, keyedSoFar);
      const lotsFile = part.gains === null ? null : await parseRealizedLotsFile(part.gains.name, takeContent(part.gains), undefined, TURNS, seen, lotsSoFar);
      if (lotsFile !== null) {
        detected.push(detectedFile(lotsFile));
        counts.realizedGainsLots += lotsFile.lots.length + (lotsFile.days?.waitingRows ?? 0);
        fileDays.lots = lotsFile.days;
      }
      const fileLots = await runStepsWithTurns(withUnknownDays(lotsFile?.lots ?? [], fileDays.lots, await knownOf(fileDays.lots)), TURNS);
      const lots = carriedLots.length === 0 ? fileLots.rows : [...carriedLots, ...fileLots.rows];
      const keyed = keyedRest(keying, lots, keyedSoFar);
      return { rows: keyed, days: await runStepsWithTurns(daysOf(lots, (lot) => lot.closedDate), TURNS), fileWarnings: [], knownRows: fileLots.knownRows };
    };
    return { takeTransactions, takeLots, fileDays, detected, accountNumber };
  }

  /**
   * Step 2, under the account lock: leaves out the days the account holds byte for byte (their digests
   * stored, file-days.ts), keys the other rows for the account (`read.take…`), stores the rows the
   * account does not hold yet and matches the trades they come to. When every new row is dated after the
   * account's last stored transaction (a later export, or one that overlaps the stored days and adds
   * later ones), the stored trades cannot change: matching goes on from the open lots the ledger holds
   * for the symbols the new rows touch, and only what they add is matched (`after` is then that last
   * date; docs/imports.md); the stored keys of the upload's days are looked up while its
   * rows are keyed. Otherwise everything the account holds is matched again (`after` null). An account
   * with no transaction stored takes that way at once, its rows written as they are read and keyed
   * (`storeAndMatchFirst`).
   *
   * The new rows are written while the trades are matched: matching needs no database, and the
   * database (a server, or the embedded engine's process) works on another core meanwhile; matching in
   * slices gives the event loop a turn now and then to feed it. A whole history matched again gives its
   * trades as they are made (`tradesAsMade`, a batch at each turn), and the ledger writes them behind
   * the new rows while the rest is matched. A failed write fails the unit of work, which waits for the
   * write before it ends.
   */
  private async storeAndMatch(userId: number, uploadId: number, read: ReadFiles, account: ImportAccount): Promise<Matched> {
    const { accountId } = account;
    const last = await this.store.lastTransactionDate(accountId);
    if (last === null) return this.storeAndMatchFirst(uploadId, read, account);
    const lots = await read.takeLots(account, (days) => this.knownDays(accountId, days));
    const keyed = await read.takeTransactions(account, (days) => this.knownDays(accountId, days));
    const { fileWarnings } = keyed;
    // The stored rows of the upload's days are looked up while its rows are keyed (the database
    // answers while the keys are computed, between their turns).
    const storedOfDays = this.store.storedKeysIn(accountId, { transactions: keyed.days, lots: lots.days });
    storedOfDays.catch(() => undefined); // a failure is met below, after the keying
    const transactions = await keyed.rows;
    const known = await storedOfDays;
    const added: Rows = {
      transactions: transactions.filter((row) => !known.transactions.has(naturalKeyOf(row))),
      lots: (await lots.rows).filter((lot) => !known.lots.has(naturalKeyOf(lot))),
    };
    const knownRows = keyed.knownRows + lots.knownRows;
    if (added.transactions.every((row) => row.date > last) && added.lots.every((lot) => lot.closedDate > last)) {
      const symbols = [...new Set([...added.transactions.map((row) => symbolKey(row.symbol)), ...added.lots.map((lot) => symbolKey(lot.symbol))])];
      const books = await this.ledger.openBooks(userId, accountId, symbols);
      if (!books.orphanedJournal) {
        const touched = new Set(symbols);
        const laterLots = (await this.store.lotsClosedAfter(accountId, last)).filter((lot) => touched.has(symbolKey(lot.symbol)));
        const written = this.store.addRows(accountId, uploadId, added);
        // The books' lots are read as the new rows' sales want them, once their broker lots are shared out.
        let from: StoredOpenLots = { openLots: [], openLotKeys: [], heldElsewhere: [] };
        const openLots = async (wanted: readonly WantedBook[]) => (from = await this.ledger.openLots(accountId, wanted));
        const result = await matchTrades(added.transactions, [...laterLots, ...added.lots], { ...TURNS, resumeFrom: { fifoSides: books.fifoSides, openLots } });
        const unchanged = added.transactions.length === 0 && added.lots.length === 0;
        return { result: Promise.resolve(result), tradesAsMade: null, written, after: last, from, symbols, brokerTradesBefore: books.brokerTrades, unchanged, fileWarnings, knownRows };
      }
    }
    // Everything is matched again. A statement of the unit of work waits for the write started before
    // it: the stored rows are read first.
    const stored = await this.store.loadRows(accountId);
    const written = this.store.addRows(accountId, uploadId, added);
    return this.matchWhole(joined(stored.transactions, added.transactions), joined(stored.lots, added.lots), { written, fileWarnings, knownRows });
  }

  /**
   * Step 2 into an account with no transaction stored (a first import): it takes every row the upload
   * brings, so its rows are written as they are keyed, a batch at a time: the lots' write starts as
   * their file is read and keyed, and the transactions' with their first thousand (read and keyed at
   * once, where the layout `readsUnderLock`); the database takes each batch in while the rest are
   * read. No day of the files is looked up by its digest: a statement of the unit of work waits for
   * the write started before it, which waits for these rows. Every row is read, and the lots the
   * account holds (next to none, with no transaction) are left out by their keys, as the lots of any
   * day read; the days the user's imports read into other accounts are put aside and read. The
   * embedded engine, whose work is most of a first import's, starts on the rows sooner (docs/imports.md).
   */
  private async storeAndMatchFirst(uploadId: number, read: ReadFiles, account: ImportAccount): Promise<Matched> {
    const { accountId } = account;
    const stored = await this.store.loadRows(accountId);
    const transactionsAsKeyed = new BatchFeed<BrokerTransaction>();
    const lotsAsKeyed = new BatchFeed<RealizedLot>();
    const written = this.store.addRows(accountId, uploadId, { transactions: transactionsAsKeyed, lots: lotsAsKeyed });
    try {
      const storedLot = storedKeys(stored.lots);
      const lots = await read.takeLots(account, async () => NO_DAYS, (batch) => lotsAsKeyed.add(notStoredYet(batch, storedLot)));
      lots.rows.then(
        () => lotsAsKeyed.end(),
        (error: unknown) => lotsAsKeyed.fail(error),
      );
      const keyed = await read.takeTransactions(account, async () => NO_DAYS, (batch) => transactionsAsKeyed.add(batch));
      keyed.rows.then(
        () => transactionsAsKeyed.end(),
        (error: unknown) => transactionsAsKeyed.fail(error),
      );
      const addedLots = notStoredYet(await lots.rows, storedLot);
      const transactions = await keyed.rows;
      return this.matchWhole(transactions, joined(stored.lots, addedLots), { written, fileWarnings: keyed.fileWarnings, knownRows: keyed.knownRows + lots.knownRows });
    } catch (error) {
      // The write waits for its rows: it fails with them (and the unit of work, which waits for it).
      transactionsAsKeyed.fail(error);
      lotsAsKeyed.fail(error);
      throw error;
    }
  }

  /**
   * Matches everything the account holds (stored and added rows, in that order) while the caller
   * writes the trades it has made (`tradesAsMade`, a batch at each of its turns; the result holds none).
   */
  private matchWhole(transactions: readonly BrokerTransaction[], lots: readonly RealizedLot[], rows: Pick<Matched, 'written' | 'fileWarnings' | 'knownRows'>): Matched {
    const tradesAsMade = new BatchFeed<MatchedTrade>();
    const result = matchTrades(transactions, lots, { ...TURNS, tradesMade: (trades) => tradesAsMade.add(trades) });
    result.then(
      () => tradesAsMade.end(),
      (error: unknown) => tradesAsMade.fail(error),
    );
    return { ...rows, result, tradesAsMade, after: null, symbols: [], brokerTradesBefore: 0, unchanged: false };
  }

  /** The days of a file put aside unread whose digest the account holds (none for a layout without days). */
  private async knownDays(accountId: number, days: FileDays<unknown> | undefined): Promise<Set<IsoDate>> {
    if (days === undefined || days.waiting.size === 0) return new Set();
    const waiting = new Map([...days.waiting.keys()].map((day) => [day, days.digests.get(day) as string]));
    return this.store.knownDays(accountId, days.layout, waiting);
  }

  /** What the log says about an import: whose, how large, how long; no file content. */
  private outcome(userId: number, accounts: readonly ImportAccount[], counts: ImportCounts, started: number) {
    const ids = [...new Set(accounts.map((account) => account.accountId))];
    return {
      user: userId,
      account: ids.length === 1 ? ids[0] : ids,
      rows: counts.transactionsProcessed + counts.realizedGainsLots,
      newTransactions: counts.transactionsInserted,
      ms: Date.now() - started,
    };
  }

  private describe(userId: number, account: ImportAccount, { part, sizes }: { part: ImportPart; sizes: { transactions: number; gains: number } }) {
    return {
      userId,
      accountId: account.accountId,
      brokerageAccount: account.accountNumber,
      transactionFile: { name: part.transactions.name, size: sizes.transactions },
      gainsFile: { name: part.gains?.name ?? '', size: sizes.gains },
    };
  }
}

interface ImportCounts {
  transactionsProcessed: number;
  transactionsInserted: number;
  realizedGainsLots: number;
  brokerVerifiedTrades: number;
  monthsUpdated: number;
}

function sumCounts(counts: readonly ImportCounts[]): ImportCounts {
  const total: ImportCounts = { transactionsProcessed: 0, transactionsInserted: 0, realizedGainsLots: 0, brokerVerifiedTrades: 0, monthsUpdated: 0 };
  for (const each of counts) for (const key of Object.keys(total) as (keyof ImportCounts)[]) total[key] += each[key];
  return total;
}

/** The ledger a match comes to. */
async function ledgerOf(result: MatchResult): Promise<AccountLedger> {
  return { ...(await ledgerRestOf(result)), trades: result.trades };
}

/** The ledger a match comes to, but its trades. */
async function ledgerRestOf(result: MatchResult): Promise<LedgerRest> {
  return {
    dividends: result.dividends,
    positions: await runStepsWithTurns(result.positions.entrySteps(), TURNS),
    companyNames: result.companyNames,
    openLots: await runStepsWithTurns(
      mappingSteps(result.openLots, (lot) => ({
        symbol: lot.symbol,
        side: lot.side,
        openDate: lot.openDate,
        shares: lot.quantity,
        cost: lot.amount,
        price: lot.txPrice,
        source: lot.source,
      })),
      TURNS,
    ),
  };
}

/** What step 2 matched: everything the account holds (`after` null), or what it adds after `after`. */
type Matched = MatchedRows &
  (
    | {
        after: null;
        /** The trades as matching makes them: the whole history is matched again while they are written. */
        tradesAsMade: AsyncIterable<readonly MatchedTrade[]>;
      }
    | {
        /** The account's last stored transaction date: only the rows after it were matched. */
        after: IsoDate;
        tradesAsMade: null;
        /** The lots of the touched books the match went on from. */
        from: StoredOpenLots;
      }
  );

interface MatchedRows {
  /** The match, still going on when the trades are given as made (its failure is met by the caller). */
  result: Promise<MatchResult>;
  /**
   * The new rows' write (rows written per table), still going on: the ledger is worked out meanwhile,
   * its statements waiting for the write (the unit of work's rule).
   */
  written: Promise<number[]>;
  /** The symbols the new rows touch (when `after` is set). */
  symbols: string[];
  /** The account's broker-lot trades already stored (when `after` is set): the stats count them too. */
  brokerTradesBefore: number;
  /** True when the upload adds no row: the ledger is left as it is. */
  unchanged: boolean;
  /** The warnings about the files' rows themselves (unknown actions), before the matching's. */
  fileWarnings: string[];
  /** The rows of days the account held byte for byte, not read again. */
  knownRows: number;
}

/** A history's transactions or lots as they are keyed, with what is known of them before. */
interface KeyedRows<T> {
  /** The rows with their keys, once keyed. */
  rows: Promise<T[]>;
  /** The days the rows are dated (transactions) or closed (lots) within, null for none. */
  days: RowDays | null;
  /** The warnings about the rows themselves (unknown actions of transactions). */
  fileWarnings: string[];
  /** The rows of days the account holds byte for byte, not read. */
  knownRows: number;
}

/** One history's files, read: the rows come out once, keyed for the account they go to. */
interface ReadFiles {
  /**
   * The transactions keyed for the account (the file read now if it was not yet), those of the days
   * `knownOf` its days answers left out. With `keyedSoFar`, each batch is told to it once keyed (as the
   * file is read, when it is read now).
   */
  takeTransactions: (
    account: ImportAccount,
    knownOf: (days: FileDays<BrokerTransaction> | undefined) => Promise<ReadonlySet<IsoDate>>,
    keyedSoFar?: (batch: readonly BrokerTransaction[]) => void,
  ) => Promise<KeyedRows<BrokerTransaction>>;
  /**
   * The lots keyed for the account (the history's own, then the lots file's), the lots file read now:
   * those of the days `knownOf` its days answers left out. With `keyedSoFar`, the lots are keyed as
   * the file is read, and each batch told to it once keyed.
   */
  takeLots: (
    account: ImportAccount,
    knownOf: (days: FileDays<RealizedLot> | undefined) => Promise<ReadonlySet<IsoDate>>,
    keyedSoFar?: (batch: readonly RealizedLot[]) => void,
  ) => Promise<KeyedRows<RealizedLot>>;
  /** The files' days, where their layouts date each row (each file's once it is read). */
  fileDays: { transactions?: FileDays<BrokerTransaction>; lots?: FileDays<RealizedLot> };
  /** The files read so far (the transactions file's and the lots file's once each is read). */
  detected: Omit<DetectedFile, 'account'>[];
  /** The account number the history carries, if its layout has one. */
  accountNumber: string | null;
}

/** A Ghostfolio export (`.json`) as the CSV of its activities (ghostfolio-export.ts), under the same name. */
function asActivitiesCsv<F extends UploadedFile>(file: F): F {
  // No receiver keeps a .json file in pieces (they take .csv names), but its bytes are read either way.
  const bytes = file.content instanceof CheckedCsvBytes ? Buffer.concat(file.content.take()) : file.content;
  return { ...file, content: ghostfolioExportAsCsv(file.name, bytes) };
}

/** An upload's histories: the request's own, then those it brings `also`. */
export function importParts(request: ImportRequest): ImportPart[] {
  return [request, ...(request.also ?? [])];
}

/** Warnings an import's answer lists at most; a last one counts the rest. */
export const LISTED_WARNINGS = 100;

/**
 * The first LISTED_WARNINGS warnings, and how many more there are: a file of sales whose purchases
 * came before its period gives one per sale, and 100,000s of them made a success line of megabytes
 * (and, spread into one `push`, a failed import: too many arguments for the call stack).
 */
export function listedWarnings(warnings: readonly string[]): string[] {
  if (warnings.length <= LISTED_WARNINGS) return [...warnings];
  const more = warnings.length - LISTED_WARNINGS;
  return [...warnings.slice(0, LISTED_WARNINGS), `… and ${more.toLocaleString('en-US')} more warning${more === 1 ? '' : 's'} not listed (${warnings.length.toLocaleString('en-US')} in all)`];
}

/** The heap (live and garbage) an import may leave to V8 to collect in its own time. */
const LEFT_HEAP_BYTES = 512 * 1024 * 1024;

/** Where the import's CPU work may stop: a turn of the event loop once it has run 10 ms since the last. */
const TURNS: Turns = { pause: turnIfDue };

/** The first and last of the rows' days; null for no rows. Steps (turns.ts), stopping every ROWS_PER_TURN rows. */
function* daysOf<T>(rows: readonly T[], dayOf: (row: T) => IsoDate): Steps<RowDays | null> {
  if (rows.length === 0) return null;
  let from = dayOf(rows[0]);
  let to = from;
  for (let index = 0; index < rows.length; index += 1) {
    if (index > 0 && index % ROWS_PER_TURN === 0) yield;
    const day = dayOf(rows[index]);
    if (day < from) from = day;
    if (day > to) to = day;
  }
  return { from, to };
}

/**
 * A file's bytes for its parse, which decodes them first: the file lets go of them then, so that they
 * go once decoded. What the import needs of a file from then on is in its rows (whose texts are the
 * decoded text's); kept until the file was read, a million-row upload's bytes (140 MB for its lots)
 * were alive at the import's peak.
 */
function takeContent(file: UploadedFile): UploadedFile['content'] {
  const { content } = file;
  file.content = EMPTY_FILE;
  return content;
}

const EMPTY_FILE = Buffer.alloc(0);

/**
 * The rows once each has its key: those the reading did not key as it went (all of them, without
 * `keyedSoFar`) are keyed now, each batch told to `keyedSoFar`. The rows are awaited where they are used.
 */
function keyedRest<T extends { fingerprint?: string }>(keying: RowKeying<T>, rows: T[], keyedSoFar: ((batch: readonly T[]) => void) | undefined): Promise<T[]> {
  const unkeyed = keyedSoFar === undefined ? rows : rows.filter((row) => !hasNaturalKey(row));
  const keyed = runStepsWithTurns(keyingSteps(keying, unkeyed, keyedSoFar), TURNS).then(() => rows);
  keyed.catch(() => undefined); // met where the rows are awaited
  return keyed;
}

/**
 * Whether a transactions file's layout (known from its first lines) `readsUnderLock`. A file whose
 * first lines cannot be read is read at once, and refused as it always was.
 */
function readsUnderLock(file: UploadedFile): boolean {
  try {
    return brokerageFormats.identify(file.name, file.content)?.readsUnderLock === true;
  } catch {
    return false;
  }
}

/** The natural keys of stored rows; undefined for none. */
function storedKeys(stored: readonly { fingerprint?: string }[]): ReadonlySet<string | undefined> | undefined {
  return stored.length === 0 ? undefined : new Set(stored.map((row) => row.fingerprint));
}

/** The rows whose natural key is not among the stored ones. */
function notStoredYet<T extends { fingerprint?: string }>(rows: readonly T[], stored: ReadonlySet<string | undefined> | undefined): readonly T[] {
  if (stored === undefined) return rows; // a first import: a million rows need no set of nothing, nor a copy
  return rows.filter((row) => !stored.has(row.fingerprint));
}

/** The stored rows and the added ones, in that order (the added alone when nothing is stored: no copy of a first import's rows). */
function joined<T>(stored: readonly T[], added: readonly T[]): readonly T[] {
  return stored.length === 0 ? added : [...stored, ...added];
}

/** What the answer tells of a file read. */
function detectedFile(file: { fileName: string; format: { id: string }; kind: DetectedFile['kind']; dataRows: number }): Omit<DetectedFile, 'account'> {
  return { file: file.fileName, broker: brokerOf(file.format.id), kind: file.kind, rows: file.dataRows };
}

const NO_DAYS: ReadonlySet<IsoDate> = new Set();

/** The broker of a layout, by its id. */
function brokerOf(formatId: string): string {
  return brokerageFormats.layouts.find((layout) => layout.id === formatId)?.broker ?? formatId;
}
