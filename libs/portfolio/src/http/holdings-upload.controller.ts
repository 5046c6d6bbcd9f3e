import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AppConfig, CurrentUser, decodeUploadedText, readUploadedFiles, UploadBudget, ValidationError, type AuthenticatedUser } from '@app/shared';
import { ApiFailures, ApiJson, ApiSignedIn, object, string } from '@app/shared/openapi';
import { HoldingsImportService } from '../application/holdings-import.service.js';

const FIELD = 'csv_file';

/** POST /api/portfolio/upload-csv and /api/portfolio/upload: one operation (../shared/spec/interface.md "Portfolio"). */
@ApiTags('Portfolio')
@ApiSignedIn()
@Controller('api/portfolio')
export class HoldingsUploadController {
  constructor(
    private readonly imports: HoldingsImportService,
    private readonly config: AppConfig,
    private readonly budget: UploadBudget,
  ) {}

  @Post(['upload-csv', 'upload'])
  @ApiOperation({ summary: 'Import holdings from a CSV file; valid rows are kept, the others listed' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: object({ csv_file: string({ format: 'binary', description: 'Columns `symbol`, `shares`; optional `average_cost`, `cost_basis`, `holding_type`, `purchase_date`, `notes`.' }) }) })
  @ApiJson('HoldingsUploadResponse', 'The outcome.')
  @ApiFailures(400, 413, 429, 503)
  @HttpCode(200)
  async upload(@CurrentUser() user: AuthenticatedUser, @Req() request: FastifyRequest) {
    const release = this.budget.reserve(user.id, request, 1);
    let result;
    try {
      result = await this.imports.import(user.id, await readCsvPart(request, this.config.uploadMaxBytes));
    } finally {
      release();
    }
    const parts = [`Imported ${result.imported} new holding${result.imported === 1 ? '' : 's'}`, `updated ${result.updated}`];
    if (result.errors.length > 0) parts.push(`${result.errors.length} row${result.errors.length === 1 ? '' : 's'} skipped`);
    return { success: true, imported: result.imported, updated: result.updated, errors: result.errors, message: parts.join(', ') };
  }
}

/** The `csv_file` part as text; any other part is refused. */
async function readCsvPart(request: FastifyRequest, maxBytes: number): Promise<string> {
  const files = await readUploadedFiles(request, {
    fields: [FIELD],
    maxBytes,
    notMultipart: `Send the holdings file as multipart/form-data in a part named ${FIELD}`,
  });
  const file = files.get(FIELD);
  if (file === undefined) throw new ValidationError(`${FIELD} is required: a CSV file part named ${FIELD}`);
  if (!/\.csv$/i.test(file.name)) throw new ValidationError(`${FIELD} must be a CSV file (.csv), got '${file.name}'`);
  return decodeUploadedText(file.content, FIELD);
}
