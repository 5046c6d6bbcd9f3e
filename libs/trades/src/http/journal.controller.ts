import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Req, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AppConfig, CurrentUser, decodeUploadedText, readUploadedFiles, UploadBudget, ValidationError, type AuthenticatedUser } from '@app/shared';
import { ApiFailures, ApiJson, ApiSignedIn, isoDate, object, string } from '@app/shared/openapi';
import { JournalService } from '../application/journal.service.js';
import { MAX_TAG_LENGTH } from '../domain/journal.js';
import { NoteDto, RenameTagDto, TagSelectionDto, TradeTagsDto } from './dto/journal.dto.js';
import { noteView, orphanView, tagChangeView, tagImportView, tagView } from './journal-views.js';
import { ReportCacheInterceptor } from './report-cache.interceptor.js';

const TAG_FILE_FIELD = 'file';
const tradeIdParam = ApiParam({ name: 'id', schema: string({ pattern: '^[0-9a-f]{20}$' }), description: "A trade's `id` (from `/api/trades`, a day or a symbol)." });
const tagParam = ApiParam({ name: 'tag', schema: string({ maxLength: MAX_TAG_LENGTH }), description: 'The tag, any case (URL-encoded).' });
const dateParam = ApiParam({ name: 'date', schema: isoDate() });

/** The journal (docs/api.md "Journal"): tags and notes on trades, notes on days, statistics per tag. */
@ApiTags('Journal')
@ApiSignedIn()
@Controller('api')
export class JournalController {
  constructor(
    private readonly journal: JournalService,
    private readonly config: AppConfig,
    private readonly budget: UploadBudget,
  ) {}

  @Put('trades/:id/tags')
  @ApiOperation({ summary: "Replace a trade's tags" })
  @tradeIdParam
  @ApiJson('TradeTagsResponse', 'The trade\'s tags as stored (each tag as first written).')
  @ApiFailures(400, 404)
  async setTags(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Body() body: TradeTagsDto) {
    return { success: true, id, tags: await this.journal.setTags(user.id, id, body.tags) };
  }

  @Post('trades/tags')
  @ApiOperation({ summary: 'Add tags to and remove tags from a selection of trades (all of them, or none)' })
  @ApiJson('TagSelectionResponse', 'Each tag with the trades it was added to or removed from.')
  @ApiFailures(400, 404)
  @HttpCode(200)
  async changeTags(@CurrentUser() user: AuthenticatedUser, @Body() body: TagSelectionDto) {
    return { success: true, ...tagChangeView(await this.journal.changeTags(user.id, body.trade_ids, body.add, body.remove)) };
  }

  @Get('trades/:id/note')
  @ApiOperation({ summary: "A trade's note" })
  @tradeIdParam
  @ApiJson('TradeNoteResponse', 'The note (null when the trade has none).')
  @ApiFailures(400, 404)
  async note(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    return { success: true, id, ...noteView(await this.journal.note(user.id, id)) };
  }

  @Put('trades/:id/note')
  @ApiOperation({ summary: "Write a trade's note (an empty note deletes it)" })
  @tradeIdParam
  @ApiJson('TradeNoteResponse', 'The note as stored (null: deleted).')
  @ApiFailures(400, 404)
  async setNote(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Body() body: NoteDto) {
    return { success: true, id, ...noteView(await this.journal.setNote(user.id, id, body.note)) };
  }

  @Post('trades/tags.csv')
  @ApiOperation({ summary: "Tag trades from another journal's CSV file (symbol, close_date, side, tags)" })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: object({ file: string({ format: 'binary', description: 'Columns `symbol`, `close_date`, `side`, `tags` (separated by `;`), or Tradervue\'s export of trades as it is.' }) }) })
  @ApiJson('TagImportResponse', 'What matched, what was ambiguous, what did not match.')
  @ApiFailures(400, 413, 429, 503)
  @HttpCode(200)
  async importTags(@CurrentUser() user: AuthenticatedUser, @Req() request: FastifyRequest) {
    const release = this.budget.reserve(user.id, request, 1);
    let text: string;
    try {
      const files = await readUploadedFiles(request, {
        fields: [TAG_FILE_FIELD],
        maxBytes: this.config.uploadMaxBytes,
        notMultipart: `Send the tag file as multipart/form-data in a part named ${TAG_FILE_FIELD}`,
      });
      const file = files.get(TAG_FILE_FIELD);
      if (file === undefined) throw new ValidationError(`${TAG_FILE_FIELD} is required: a CSV file part named ${TAG_FILE_FIELD}`);
      text = decodeUploadedText(file.content, TAG_FILE_FIELD);
    } finally {
      release();
    }
    return { success: true, ...tagImportView(await this.journal.importTags(user.id, text)) };
  }

  @Get('tags')
  @UseInterceptors(ReportCacheInterceptor)
  @ApiOperation({ summary: "The user's tags, each with its trades' figures (through the report cache)" })
  @ApiJson('TagsResponse', 'Every tag, by name.')
  async tags(@CurrentUser() user: AuthenticatedUser) {
    const tags = (await this.journal.tags(user.id)).map(tagView);
    return { success: true, tags };
  }

  @Patch('tags/:tag')
  @ApiOperation({ summary: 'Rename a tag (merging it into another tag of that name)' })
  @tagParam
  @ApiJson('TagChangedResponse', 'The tag as it is now.')
  @ApiFailures(400, 404)
  async renameTag(@CurrentUser() user: AuthenticatedUser, @Param('tag') tag: string, @Body() body: RenameTagDto) {
    const renamed = await this.journal.renameTag(user.id, tag, body.name);
    const message = renamed.merged ? `Tag '${tag}' merged into '${renamed.name}'` : `Tag renamed to '${renamed.name}'`;
    return { success: true, name: renamed.name, merged: renamed.merged, message };
  }

  @Delete('tags/:tag')
  @ApiOperation({ summary: 'Delete a tag from every trade' })
  @tagParam
  @ApiJson('TagDeletedResponse', 'The tag is gone.')
  @ApiFailures(400, 404)
  async deleteTag(@CurrentUser() user: AuthenticatedUser, @Param('tag') tag: string) {
    const deleted = await this.journal.deleteTag(user.id, tag);
    return { success: true, name: deleted.name, trades_untagged: deleted.trades, message: `Tag '${deleted.name}' deleted` };
  }

  @Get('journal/orphans')
  @ApiOperation({ summary: 'Tags and notes of trades that no import derives any more' })
  @ApiJson('JournalOrphansResponse', 'The orphans, by close date.')
  async orphans(@CurrentUser() user: AuthenticatedUser) {
    const orphans = (await this.journal.orphans(user.id)).map(orphanView);
    return { success: true, orphans, count: orphans.length };
  }

  @Delete('journal/orphans/:id')
  @ApiOperation({ summary: "Discard an orphan's tags and note" })
  @tradeIdParam
  @ApiJson('OrphanDiscardedResponse', 'Discarded.')
  @ApiFailures(400, 404)
  async discardOrphan(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    await this.journal.discardOrphan(user.id, id);
    return { success: true, id, message: 'Discarded' };
  }

  @Get('journal/:date')
  @ApiOperation({ summary: "A day's note" })
  @dateParam
  @ApiJson('DayNoteResponse', 'The note (null when the day has none).')
  @ApiFailures(400)
  async dayNote(@CurrentUser() user: AuthenticatedUser, @Param('date') date: string) {
    const { date: day, note } = await this.journal.dayNote(user.id, date);
    return { success: true, date: day, ...noteView(note) };
  }

  @Put('journal/:date')
  @ApiOperation({ summary: "Write a day's note (an empty note deletes it)" })
  @dateParam
  @ApiJson('DayNoteResponse', 'The note as stored (null: deleted).')
  @ApiFailures(400)
  async setDayNote(@CurrentUser() user: AuthenticatedUser, @Param('date') date: string, @Body() body: NoteDto) {
    const { date: day, note } = await this.journal.setDayNote(user.id, date, body.note);
    return { success: true, date: day, ...noteView(note) };
  }
}
