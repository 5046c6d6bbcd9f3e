import { setImmediate as nextTick } from 'node:timers/promises';
import { Controller, Get, HttpCode, HttpStatus, Logger, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BrokerageAccounts, parseBrokerageAccountNumber } from '@app/auth';
import {
  AppConfig,
  CurrentUser,
  dataResponse,
  describeFailure,
  DomainError,
  readUploadedFileList,
  readUploadedFiles,
  UploadBudget,
  ValidationError,
  type AuthenticatedUser,
  type FileReceiver,
  type UploadedFile,
} from '@app/shared';
import { ApiFailures, ApiJson, ApiSignedIn, arrayOf, object, ref, string } from '@app/shared/openapi';
import {
  FILES_REQUIRED,
  ImportBrokerageFiles,
  type DetectedFile,
  type ImportPart,
  type ImportRequest,
  type ImportStats,
} from '../application/import-brokerage-files.service.js';
import { UploadHistory } from '../application/upload-history.port.js';
import { ImportFileError } from '../domain/import.errors.js';
import { CheckedCsvArrival, CsvTextReceiver, hasCsvName, type CheckedCsvBytes } from '../domain/parsers/csv-text.js';
import { brokerageFormats } from '../domain/parsers/format-registry.js';
import { ThreadedImports, type StartedThread } from '../infrastructure/thread/threaded-imports.js';

const UPLOAD_FIELDS = ['transaction_history_file', 'realized_gains_file'];
/** `POST /api/import`: transaction histories and, where their brokers give them, their realized lots. */
const IMPORT_FIELD = 'files';
/** The account files that carry no account number go to (the default account when absent). */
const IMPORT_ACCOUNT_FIELD = 'account';
const IMPORT_MAX_FILES = 6;
const IMPORT_FILES_REQUIRED = "Send the broker's transaction history in the files field (and its realized lots, where the broker gives them)";
const IMPORT_FILES_MUST_BE_CSV = 'Every file must be a CSV file';
const IMPORT_INTERNAL_ERROR = 'The import failed because of an internal error; nothing was imported';
const ACCOUNT_NOT_SET = 'Brokerage account number not set. Please update your profile.';

/**
 * A CSV file's text is decoded while its bytes arrive, so the first progress line follows the upload's
 * last byte without the whole files' decoding in between (docs/imports.md); a file of
 * another name is refused unread, so it is not decoded.
 */
function decodedOnArrival(name: string): FileReceiver | undefined {
  return hasCsvName(name) ? new CsvTextReceiver(name) : undefined;
}

/**
 * A CSV file of an upload imported on a thread of its own is only checked as it arrives, its bytes
 * kept in blocks the thread is handed as they are: the thread decodes it.
 */
function checkedOnArrival(name: string): FileReceiver<CheckedCsvBytes> | undefined {
  return hasCsvName(name) ? new CheckedCsvArrival() : undefined;
}

/** The upload's declared length (`Content-Length`, which bounds its files' bytes); NaN when it has none. */
function declaredLength(request: FastifyRequest): number {
  return Number(request.headers['content-length']);
}

/** An import to run and stream; `detect` adds what was detected to the success line (`/api/import`). */
type StreamRequest = ImportRequest & { detect?: boolean };

type StreamLine =
  | { type: 'progress'; percentage: number; message: string }
  | { type: 'success'; message: string; stats: ImportStats; warnings?: string[]; detected?: DetectedFile[] }
  | { type: 'error'; message: string };

/** `POST /api/upload-csv` (an NDJSON progress stream) and `GET /api/upload-history`. */
@ApiTags('Data import')
@ApiSignedIn()
@Controller('api')
export class UploadController {
  private readonly logger = new Logger(UploadController.name);

  constructor(
    private readonly importFiles: ImportBrokerageFiles,
    private readonly imports: ThreadedImports,
    private readonly accounts: BrokerageAccounts,
    private readonly history: UploadHistory,
    private readonly config: AppConfig,
    private readonly budget: UploadBudget,
  ) {}

  @Post('upload-csv')
  @ApiOperation({
    summary: 'Import the broker files: a stream of progress lines, then success or error (all or nothing)',
    description: 'The answer is NDJSON: one JSON object per line, flushed as the import goes. Refusals before the stream starts are a single `{type:"error", message}` body with a 4xx or 503 status.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: object({
      transaction_history_file: string({ format: 'binary', description: 'The transaction history CSV.' }),
      realized_gains_file: string({ format: 'binary', description: 'The realized gains/losses CSV.' }),
    }),
  })
  @ApiResponse({
    status: 200,
    description: 'The import as it happens: `progress` lines, then one `success` or `error` line.',
    content: { 'application/x-ndjson': { schema: ref('UploadLine') } },
  })
  @ApiResponse({
    status: 400,
    description: 'Refused before the import starts: a file missing or not CSV, or no brokerage account number in the profile.',
    content: { 'application/json': { schema: ref('UploadErrorLine') } },
  })
  @ApiResponse({ status: 413, description: 'A file is larger than allowed.', content: { 'application/json': { schema: ref('UploadErrorLine') } } })
  @ApiResponse({ status: 429, description: 'Another upload of the user is still running.', content: { 'application/json': { schema: ref('UploadErrorLine') } } })
  @ApiResponse({ status: 503, description: 'The service has no room for another upload now.', content: { 'application/json': { schema: ref('UploadErrorLine') } } })
  async upload(@CurrentUser() user: AuthenticatedUser, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.receive(user, request, reply, UPLOAD_FIELDS.length, async (account) => {
      const files = await readUploadedFiles(request, { fields: UPLOAD_FIELDS, maxBytes: this.config.uploadMaxBytes, notMultipart: FILES_REQUIRED, receiver: this.receiverFor(request) });
      const transactions = files.get('transaction_history_file');
      const gains = files.get('realized_gains_file');
      if (transactions === undefined || gains === undefined) return FILES_REQUIRED;
      await this.importFiles.precheck([transactions, gains]);
      return { userId: user.id, account, transactions, gains };
    });
  }

  /**
   * What both upload endpoints do around their own reading of the files: the account number check,
   * room for the files (they stay in memory until the import has ended), and the refusals before the
   * stream starts (a bad request, too large, too many, busy), as the upload's own `{type:'error'}`
   * body; anything else is the global filter's. `prepare` answers the import to run, or a refusal.
   */
  private async receive(
    user: AuthenticatedUser,
    request: FastifyRequest,
    reply: FastifyReply,
    maxFiles: number,
    prepare: (account: ImportRequest['account']) => Promise<StreamRequest | string>,
  ): Promise<void> {
    const account = await this.accounts.findForUser(user.id);
    if (account === null) return refuse(reply, HttpStatus.BAD_REQUEST, ACCOUNT_NOT_SET);
    let release: (() => void) | undefined;
    let thread: StartedThread | undefined;
    try {
      release = this.budget.reserve(user.id, request, maxFiles);
      // An upload whose declared length sends it to a thread has the thread load while its files arrive.
      thread = this.imports.startFor(declaredLength(request));
      const prepared = await prepare(account);
      if (typeof prepared === 'string') return refuse(reply, HttpStatus.BAD_REQUEST, prepared);
      await this.streamImport(reply, prepared, thread);
    } catch (error) {
      if (!(error instanceof DomainError) || reply.sent) throw error;
      const { status, message } = describeFailure(error, this.logger);
      if (status >= 500 && status !== HttpStatus.SERVICE_UNAVAILABLE) throw error;
      return refuse(reply, status, message, error instanceof ImportFileError ? error.detail : null);
    } finally {
      thread?.end();
      release?.();
    }
  }

  /** How an import's files are taken as they arrive: checked only when the upload's declared length sends its import to a thread. */
  private receiverFor(request: FastifyRequest): (name: string) => FileReceiver<CheckedCsvBytes> | undefined {
    return this.imports.runsOnThread(declaredLength(request)) ? checkedOnArrival : decodedOnArrival;
  }

  /** From here on the answer is a stream: 200, one JSON object per line, each flushed as it happens. */
  private async streamImport(reply: FastifyReply, request: StreamRequest, thread: StartedThread | undefined): Promise<void> {
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    const send = async (line: StreamLine) => {
      raw.write(`${JSON.stringify(line)}\n`);
      await nextTick(); // let the line leave before the next CPU-bound step
    };
    try {
      const { stats, warnings, detected } = await this.imports.run(request, (step) => send({ type: 'progress', percentage: step.percentage, message: step.message }), thread);
      // The contract's success line for /api/upload-csv; /api/import adds what it detected.
      const withDetected = request.detect ? { detected } : {};
      await send({ type: 'success', message: 'Successfully processed files', stats, ...(warnings.length > 0 ? { warnings } : {}), ...withDetected });
    } catch (error) {
      await send({ type: 'error', message: describeFailure(error, this.logger, IMPORT_INTERNAL_ERROR).message });
    } finally {
      raw.end();
    }
  }

  @Post('import')
  @ApiOperation({
    summary: "Import any broker's files, detected from their content: a stream of progress lines, then success (with what was detected) or error",
    description:
      'Up to six files in the `files` field: transaction histories of any layout `GET /api/import/formats` lists, each with its broker\'s realized lots where it gives them (without them every trade is FIFO); ' +
      'a `.json` file is read as Ghostfolio\'s export, as the CSV of its activities. ' +
      'Each history goes to the account it carries (Interactive Brokers, Vanguard, E*TRADE, thinkorswim, the executions template), else to the `account` field\'s, else to the profile\'s; all files are imported or none. ' +
      'The same NDJSON lines as `POST /api/upload-csv`; the success line adds `detected`.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: object(
      {
        files: arrayOf(string({ format: 'binary' }), {
          description: 'Up to 6 files: transaction histories (one per account), each with its broker\'s realized lots where it gives them.',
        }),
        account: string({ description: 'The account number for files that carry none (created if new); the profile\'s account when absent.' }),
      },
      ['account'],
    ),
  })
  @ApiResponse({ status: 200, description: 'The import as it happens.', content: { 'application/x-ndjson': { schema: ref('UploadLine') } } })
  @ApiResponse({
    status: 400,
    description: 'Refused before the import starts: no file, not CSV, a layout the import does not know, lots without a history of their broker, an unusable account field, or no account number in the profile.',
    content: { 'application/json': { schema: ref('UploadErrorLine') } },
  })
  @ApiResponse({ status: 413, description: 'A file is larger than allowed.', content: { 'application/json': { schema: ref('UploadErrorLine') } } })
  @ApiResponse({ status: 429, description: 'Another upload of the user is still running.', content: { 'application/json': { schema: ref('UploadErrorLine') } } })
  @ApiResponse({ status: 503, description: 'The service has no room for another upload now.', content: { 'application/json': { schema: ref('UploadErrorLine') } } })
  async importAny(@CurrentUser() user: AuthenticatedUser, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.receive(user, request, reply, IMPORT_MAX_FILES, async (account) => {
      const { files, text } = await readUploadedFileList(request, {
        fields: [IMPORT_FIELD],
        textFields: [IMPORT_ACCOUNT_FIELD],
        maxFiles: IMPORT_MAX_FILES,
        maxBytes: this.config.uploadMaxBytes,
        notMultipart: IMPORT_FILES_REQUIRED,
        receiver: this.receiverFor(request),
      });
      if (files.length === 0) return IMPORT_FILES_REQUIRED;
      const readable = await this.importFiles.precheck(files, IMPORT_FILES_MUST_BE_CSV, true);
      const named = text.get(IMPORT_ACCOUNT_FIELD)?.trim();
      const accountNumber = named === undefined || named === '' ? undefined : usableAccountNumber(named, 'The account field');
      const [first, ...also] = groupFiles(readable);
      return {
        userId: user.id,
        account,
        ...first,
        also,
        ...(accountNumber === undefined ? {} : { accountNumber }),
        accountFor: (number: string) => this.accounts.findOrCreate(user.id, usableAccountNumber(number, `The account number ${JSON.stringify(number)} in the file`)),
        detect: true,
      };
    });
  }

  @Post('import/preview')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'What `POST /api/import` would read in these files, without importing: each file\'s broker, kind, rows and account, or why it would be refused',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: object({ files: arrayOf(string({ format: 'binary' }), { description: 'Up to 6 files, as for `POST /api/import`.' }) }) })
  @ApiJson('ImportPreviewResponse', 'Each file as the import would read it.')
  @ApiFailures(400, 413, 429, 503)
  async preview(@CurrentUser() user: AuthenticatedUser, @Req() request: FastifyRequest) {
    const release = this.budget.reserve(user.id, request, IMPORT_MAX_FILES);
    try {
      const { files } = await readUploadedFileList(request, {
        fields: [IMPORT_FIELD],
        maxFiles: IMPORT_MAX_FILES,
        maxBytes: this.config.uploadMaxBytes,
        notMultipart: IMPORT_FILES_REQUIRED,
        receiver: decodedOnArrival,
      });
      if (files.length === 0) throw new ValidationError(IMPORT_FILES_REQUIRED);
      const { previews, readable } = await this.importFiles.preview(files);
      let problem: string | null = null;
      if (previews.every((entry) => entry.error === null)) {
        try {
          groupFiles(readable);
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          problem = error.message;
        }
      }
      return dataResponse({
        files: previews.map((entry) => ({
          file: entry.file,
          broker: entry.broker,
          label: entry.label,
          kind: entry.kind,
          rows: entry.rows,
          account: entry.accountNumber,
          error: entry.error,
        })),
        problem,
      });
    } finally {
      release();
    }
  }

  @Get('import/formats')
  @ApiOperation({ summary: 'The brokerage file layouts the import detects (docs/formats.md), with the columns each expects' })
  @ApiJson('ImportFormatsResponse', 'The layouts, transactions and realized lots.')
  formats() {
    return dataResponse({
      formats: brokerageFormats.layouts.map((layout) => ({
        id: layout.id,
        label: layout.label,
        broker: layout.broker,
        kind: layout.kind,
        columns: layout.columns.map((column) => ({ name: column.name, required: column.required })),
      })),
    });
  }

  @Get('upload-history')
  @ApiOperation({ summary: "The user's uploads, successful or not, newest first" })
  @ApiJson('UploadHistoryResponse', 'The history.')
  async uploadHistory(@CurrentUser() user: AuthenticatedUser) {
    const entries = await this.history.listForUser(user.id);
    return dataResponse({
      history: entries.map((entry) => ({
        transaction_filename: entry.transactionFile.name,
        gains_filename: entry.gainsFile.name,
        timestamp: entry.createdAt.toISOString(),
        transaction_file_size: entry.transactionFile.size,
        gains_file_size: entry.gainsFile.size,
        status: entry.status,
        user_email: user.email, // the history is the signed-in user's own
        account_id: entry.accountId,
        brokerage_account: entry.brokerageAccount,
        transactions_processed: entry.transactionsProcessed,
        months_updated: entry.monthsUpdated,
        transactions_inserted: entry.transactionsInserted,
        realized_gains_lots: entry.realizedGainsLots,
        broker_verified_trades: entry.brokerVerifiedTrades,
        error: entry.error,
      })),
    });
  }
}

/** A refusal before the stream starts: `{type:'error', message}`, plus `detail` when the message is a fixed sentence. */
function refuse(reply: FastifyReply, status: number, message: string, detail: string | null = null): void {
  const body = detail === null ? { type: 'error', message } : { type: 'error', message, detail };
  void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
}

/** An account number as the profile takes it; a ValidationError that says whose it is otherwise. */
function usableAccountNumber(number: string, whose: string): string {
  try {
    return parseBrokerageAccountNumber(number);
  } catch (error) {
    if (error instanceof ValidationError) throw new ValidationError(`${whose} is not an account number: ${error.message.replace(/^brokerage_account /, 'it ')}`);
    throw error;
  }
}

/**
 * The histories of an `/api/import` upload, each with its realized lots, from the files' content: every
 * file of a layout the import knows, at least one history, and each lots file beside exactly one
 * history of its broker (several histories are several accounts, or several exports of one).
 */
function groupFiles(files: readonly UploadedFile<CheckedCsvBytes>[]): ImportPart[] {
  const known = brokerageFormats.layouts;
  const identified = files.map((file) => {
    const format = brokerageFormats.identify(file.name, file.content);
    const layout = format?.accepted ? known.find((candidate) => candidate.id === format.id) : undefined;
    if (layout === undefined) {
      const brokers = [...new Set(known.map((candidate) => candidate.broker))].join(', ');
      throw new ValidationError(`${file.name}: not a layout the import knows (supported: ${brokers}; GET /api/import/formats lists their columns)`);
    }
    return { file, layout };
  });
  const histories = identified.filter((entry) => entry.layout.kind === 'transactions');
  const lots = identified.filter((entry) => entry.layout.kind === 'realized-lots');
  if (histories.length === 0) throw new ValidationError(`A transaction history is required beside ${lots.map((entry) => entry.file.name).join(', ')}`);
  const parts: ImportPart[] = histories.map((entry) => ({ transactions: entry.file, gains: null }));
  for (const lot of lots) {
    const same = histories.filter((entry) => entry.layout.broker === lot.layout.broker);
    if (same.length === 0) {
      const sent = histories.map((entry) => `${entry.file.name} (${entry.layout.broker} transactions)`).join(', ');
      throw new ValidationError(`${lot.file.name} (${lot.layout.broker} realized lots) does not go with ${sent}: send a broker's lots with its own history`);
    }
    if (same.length > 1) {
      throw new ValidationError(
        `${lot.file.name}: which ${lot.layout.broker} history do these lots go with (${same.map((entry) => entry.file.name).join(', ')})? Send a broker's lots with only one of its histories`,
      );
    }
    const part = parts[histories.indexOf(same[0])];
    if (part.gains !== null) throw new ValidationError(`Send one realized-lots file per history (${part.transactions.name} has ${part.gains.name} and ${lot.file.name})`);
    part.gains = lot.file;
  }
  return parts;
}
