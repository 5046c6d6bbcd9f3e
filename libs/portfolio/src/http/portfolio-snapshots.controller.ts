import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthenticatedUser } from '@app/shared';
import { ApiFailures, ApiJson, ApiSignedIn } from '@app/shared/openapi';
import { SnapshotsService } from '../application/snapshots.service.js';
import { SnapshotNotFoundError } from '../domain/portfolio.errors.js';
import { IdParams } from './dto/holding.dto.js';
import { CreateSnapshotDto, HistoryQueryDto } from './dto/snapshot.dto.js';
import { toSnapshotResponse } from './portfolio.presenter.js';

const DEFAULT_HISTORY_DAYS = 30;
const MAX_ID = 2_147_483_647;

/** Portfolio snapshots (../shared/spec/interface.md "Portfolio", ../shared/spec/decisions.md §5). */
@ApiTags('Portfolio')
@ApiSignedIn()
@Controller('api/portfolio')
export class PortfolioSnapshotsController {
  constructor(private readonly snapshots: SnapshotsService) {}

  @Post('snapshot')
  @ApiOperation({ summary: "Record the portfolio's value now" })
  @ApiJson('SnapshotResponse', 'Taken.', 201)
  @ApiFailures(400)
  @HttpCode(201)
  async create(@CurrentUser() user: AuthenticatedUser, @Body() body: CreateSnapshotDto) {
    const snapshot = await this.snapshots.take(user.id, body.snapshot_type ?? 'MANUAL', body.notes ?? '');
    return { success: true, snapshot: toSnapshotResponse(snapshot, false) };
  }

  @Get('history')
  @ApiOperation({ summary: 'The snapshots of the last `days` days, newest first' })
  @ApiJson('SnapshotHistoryResponse', 'The snapshots.')
  @ApiFailures(400)
  async history(@CurrentUser() user: AuthenticatedUser, @Query() query: HistoryQueryDto) {
    const days = query.days === undefined ? DEFAULT_HISTORY_DAYS : Number(query.days);
    const history = await this.snapshots.history(user.id, days, query.type);
    return { success: true, history: history.map((s) => toSnapshotResponse(s, true)) };
  }

  @Delete('snapshot/:id')
  @ApiOperation({ summary: 'Delete a snapshot' })
  @ApiJson('MessageResponse', "Deleted; the message names the snapshot's type and time.")
  @ApiFailures(400, 404)
  async remove(@CurrentUser() user: AuthenticatedUser, @Param() params: IdParams) {
    const id = Number(params.id);
    if (id > MAX_ID) throw new SnapshotNotFoundError();
    return { success: true, message: await this.snapshots.delete(user.id, id) };
  }
}
