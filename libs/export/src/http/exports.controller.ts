import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentUser, type AuthenticatedUser } from '@app/shared';
import { ApiFailures, ApiSignedIn, isoDate, isoMonth, oneOfStrings } from '@app/shared/openapi';
import { ApiAccountFilter, ApiTradeListFilters } from '@app/trades';
import type { GeneratedFile } from '../application/export-generator.port.js';
import { ExportReports } from '../application/export-reports.service.js';

const FORMATS = ['csv', 'excel', 'pdf'];
const FILES = {
  csv: 'text/csv; charset=utf-8',
  excel: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
};

/** `paper` of the PDF exports. */
function ApiPaper(): MethodDecorator {
  return ApiQuery({ name: 'paper', required: false, schema: oneOfStrings(['a4', 'letter'], { default: 'a4' }), description: 'PDF only.' });
}

/** A file download in one of these media types, named by `Content-Disposition`. */
function ApiFile(mediaTypes: Record<string, string>): MethodDecorator {
  return ApiResponse({
    status: 200,
    description: 'The file, as an attachment.',
    headers: { 'Content-Disposition': { description: '`attachment; filename="…"`', schema: { type: 'string' } } },
    content: Object.fromEntries(Object.values(mediaTypes).map((type) => [type.split(';')[0], { schema: { type: 'string', format: 'binary' } }])),
  });
}

/** Day and month exports as files (`csv`, `excel`, `pdf`; `paper=a4|letter` for PDF); the trade list as CSV. */
@ApiTags('Calendar and exports')
@ApiSignedIn()
@Controller('api')
export class ExportsController {
  constructor(private readonly exports: ExportReports) {}

  @Get('calendar/export/:format')
  @ApiOperation({ summary: "A day's trades and dividends as a file" })
  @ApiParam({ name: 'format', schema: oneOfStrings(FORMATS) })
  @ApiQuery({ name: 'date', required: true, schema: isoDate() })
  @ApiAccountFilter()
  @ApiPaper()
  @ApiFile(FILES)
  @ApiFailures(400, 404)
  async day(
    @CurrentUser() user: AuthenticatedUser,
    @Param('format') format: string,
    @Query('date') date: unknown,
    @Query('paper') paper: unknown,
    @Query('account') account: unknown,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    send(reply, await this.exports.day(user.id, format, date, paper, account));
  }

  @Get('monthly/export/:format')
  @ApiOperation({ summary: "A month's summary, trades and dividends as a file" })
  @ApiParam({ name: 'format', schema: oneOfStrings(FORMATS) })
  @ApiQuery({ name: 'month', required: true, schema: isoMonth() })
  @ApiAccountFilter()
  @ApiPaper()
  @ApiFile(FILES)
  @ApiFailures(400, 404)
  async month(
    @CurrentUser() user: AuthenticatedUser,
    @Param('format') format: string,
    @Query('month') month: unknown,
    @Query('paper') paper: unknown,
    @Query('account') account: unknown,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    send(reply, await this.exports.month(user.id, format, month, paper, account));
  }

  @Get('trades/export.csv')
  @ApiOperation({ summary: 'The trades `/api/trades` selects, all of them, as CSV' })
  @ApiTradeListFilters()
  @ApiAccountFilter()
  @ApiFile({ csv: FILES.csv })
  @ApiFailures(400, 404)
  async trades(@CurrentUser() user: AuthenticatedUser, @Query() query: Record<string, unknown>, @Res() reply: FastifyReply): Promise<void> {
    send(reply, await this.exports.trades(user.id, query));
  }
}

function send(reply: FastifyReply, file: GeneratedFile): void {
  void reply
    .header('content-type', file.mediaType)
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(file.content);
}
