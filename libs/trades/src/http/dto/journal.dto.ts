import { ApiProperty } from '@nestjs/swagger';
import { IsArray, IsString } from 'class-validator';
import { MAX_NOTE_LENGTH, MAX_TAG_LENGTH, MAX_TAGS_PER_TRADE } from '../../domain/journal.js';

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
  @IsArray({ message: 'tags must be a list of strings, e.g. {"tags": ["breakout"]}' })
  @IsString({ each: true, message: 'tags must be a list of strings, e.g. {"tags": ["breakout"]}' })
  tags: string[];
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
