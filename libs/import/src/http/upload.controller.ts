import { setImmediate as nextTick } from 'node:timers/promises';
import { Controller, Get, HttpStatus, Logger, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BrokerageAccounts } from '@app/auth';
import { isConnectionError } from '@app/persistence';
import { AppConfig, CurrentUser, DomainError, dataResponse, readUploadedFiles, type AuthenticatedUser } from '@app/shared';
import {
  FILES_REQUIRED,
  ImportBrokerageFiles,
  type ImportStats,
} from '../application/import-brokerage-files.service.js';
import { UploadHistory } from '../application/upload-history.port.js';

const UPLOAD_FIELDS = ['transaction_history_file', 'realized_gains_file'];
const ACCOUNT_NOT_SET = 'Brokerage account number not set. Please update your profile.';

type StreamLine =
  | { type: 'progress'; percentage: number; message: string }
  | { type: 'success'; message: string; stats: ImportStats; warnings?: string[] }
  | { type: 'error'; message: string };

/** `POST /api/upload-csv` (an NDJSON progress stream) and `GET /api/upload-history`. */
@Controller('api')
export class UploadController {
  private readonly logger = new Logger(UploadController.name);

  constructor(
    private readonly importFiles: ImportBrokerageFiles,
    private readonly accounts: BrokerageAccounts,
    private readonly history: UploadHistory,
    private readonly config: AppConfig,
  ) {}

  @Post('upload-csv')
  async upload(@CurrentUser() user: AuthenticatedUser, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const account = await this.accounts.findForUser(user.id);
    if (account === null) return refuse(reply, HttpStatus.BAD_REQUEST, ACCOUNT_NOT_SET);

    let transactions, gains;
    try {
      const files = await readUploadedFiles(request, { fields: UPLOAD_FIELDS, maxBytes: this.config.uploadMaxBytes, notMultipart: FILES_REQUIRED });
      transactions = files.get('transaction_history_file');
      gains = files.get('realized_gains_file');
      if (transactions === undefined || gains === undefined) return refuse(reply, HttpStatus.BAD_REQUEST, FILES_REQUIRED);
      this.importFiles.precheck([transactions, gains]);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'PAYLOAD_TOO_LARGE') return refuse(reply, HttpStatus.PAYLOAD_TOO_LARGE, error.message);
      if (error instanceof DomainError && error.code === 'VALIDATION_ERROR') return refuse(reply, HttpStatus.BAD_REQUEST, error.message);
      throw error;
    }

    // From here on the answer is a stream: 200, one JSON object per line, each flushed as it happens.
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    const send = async (line: StreamLine) => {
      raw.write(`${JSON.stringify(line)}\n`);
      await nextTick(); // let the line leave before the next CPU-bound step
    };
    try {
      const { stats, warnings } = await this.importFiles.run({ userId: user.id, account, transactions, gains }, (step) =>
        send({ type: 'progress', percentage: step.percentage, message: step.message }),
      );
      await send({ type: 'success', message: 'Successfully processed files', stats, ...(warnings.length > 0 ? { warnings } : {}) });
    } catch (error) {
      await send({ type: 'error', message: this.describeFailure(error) });
    } finally {
      raw.end();
    }
  }

  @Get('upload-history')
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
        user_email: entry.userEmail,
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

  private describeFailure(error: unknown): string {
    if (error instanceof DomainError) return error.message;
    if (isConnectionError(error)) return 'Database connection failed';
    this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    return 'The import failed because of an internal error; nothing was imported';
  }
}

function refuse(reply: FastifyReply, status: number, message: string): void {
  void reply.status(status).header('content-type', 'application/json; charset=utf-8').send({ type: 'error', message });
}
