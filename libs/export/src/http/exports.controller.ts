import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { CurrentUser, type AuthenticatedUser } from '@app/shared';
import type { GeneratedFile } from '../application/export-generator.port.js';
import { ExportReports } from '../application/export-reports.service.js';

/** Day and month exports as files (`csv`, `excel`, `pdf`; `paper=a4|letter` for PDF); the trade list as CSV. */
@Controller('api')
export class ExportsController {
  constructor(private readonly exports: ExportReports) {}

  @Get('calendar/export/:format')
  async day(
    @CurrentUser() user: AuthenticatedUser,
    @Param('format') format: string,
    @Query('date') date: unknown,
    @Query('paper') paper: unknown,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    send(reply, await this.exports.day(user.id, format, date, paper));
  }

  @Get('monthly/export/:format')
  async month(
    @CurrentUser() user: AuthenticatedUser,
    @Param('format') format: string,
    @Query('month') month: unknown,
    @Query('paper') paper: unknown,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    send(reply, await this.exports.month(user.id, format, month, paper));
  }

  @Get('trades/export.csv')
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
