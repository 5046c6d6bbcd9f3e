import { ApiProperty } from '@nestjs/swagger';
import { IsArray, IsOptional, IsString } from 'class-validator';
import { TRADE_IDS_MESSAGE } from '../../application/journal.service.js';
import { MAX_NOTE_LENGTH, MAX_TAG_LENGTH, MAX_TAGS_PER_TRADE, MAX_TRADES_PER_TAG_CHANGE, tagListMessage } from '../../domain/journal.js';

// The journal's request bodies. Their types are checked here; lengths and trimming by the domain
// (domain/journal.ts), which counts characters as a person does (code points).

/** PUT /api/trades/{id}/tags. */
export class TradeTagsDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: MAX_TAG_LENGTH },
    maxItems: MAX_TAGS_PER_TRADE,
    description: 'The trade\'s whole set of tags (replaces the previous one); `[]` removes them all.',
    example: ['breakout', 'A+ setup'],
  })
  @IsArray({ message: tagListMessage('tags') })
  @IsString({ each: true, message: tagListMessage('tags') })
  tags: string[];
}

const tagList = (description: string) => ({
  type: 'array' as const,
  required: false,
  items: { type: 'string', minLength: 1, maxLength: MAX_TAG_LENGTH },
  maxItems: MAX_TAGS_PER_TRADE,
  description,
});

/** POST /api/trades/tags: one change of tags on a selection of trades. */
export class TagSelectionDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'string', pattern: '^[0-9a-f]{20}$' },
    minItems: 1,
    maxItems: MAX_TRADES_PER_TAG_CHANGE,
    description: "The trades' `id`s (from `/api/trades`, a day or a symbol); every one must be a trade of the user's.",
  })
  @IsArray({ message: TRADE_IDS_MESSAGE })
  @IsString({ each: true, message: TRADE_IDS_MESSAGE })
  trade_ids: string[];

  @ApiProperty(tagList('Tags each of the trades gets (those it carries already stay once).'))
  @IsOptional()
  @IsArray({ message: tagListMessage('add') })
  @IsString({ each: true, message: tagListMessage('add') })
  add?: string[];

  @ApiProperty(tagList('Tags taken off each of the trades (a tag stays, also with no trade left carrying it).'))
  @IsOptional()
  @IsArray({ message: tagListMessage('remove') })
  @IsString({ each: true, message: tagListMessage('remove') })
  remove?: string[];
}

/** PUT /api/trades/{id}/note and PUT /api/journal/{date}. */
export class NoteDto {
  @ApiProperty({ type: 'string', maxLength: MAX_NOTE_LENGTH, description: 'Plain text or Markdown, stored as given; an empty string deletes the note.' })
  @IsString({ message: 'note must be a string (an empty string deletes the note)' })
  note: string;
}

/** PATCH /api/tags/{tag}. */
export class RenameTagDto {
  @ApiProperty({ type: 'string', minLength: 1, maxLength: MAX_TAG_LENGTH, description: 'The new name; when another tag has it (any case), the two merge.' })
  @IsString({ message: 'name must be a string' })
  name: string;
}
