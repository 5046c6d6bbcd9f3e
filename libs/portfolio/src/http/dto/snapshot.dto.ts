import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { SNAPSHOT_TYPES, type SnapshotType } from '../../domain/snapshot.js';
import { PLAIN_TEXT } from './rules.js';

/** POST /api/portfolio/snapshot: both fields optional; the type defaults to MANUAL. */
export class CreateSnapshotDto {
  @ApiPropertyOptional({ enum: SNAPSHOT_TYPES, default: 'MANUAL' })
  @IsOptional()
  @IsIn(SNAPSHOT_TYPES, { message: `snapshot_type must be one of ${SNAPSHOT_TYPES.join(', ')}` })
  snapshot_type?: SnapshotType;

  @ApiPropertyOptional({ type: 'string', maxLength: 1000 })
  @IsOptional()
  @IsString({ message: 'notes must be a string' })
  @MaxLength(1000, { message: 'notes must be at most 1000 characters' })
  @Matches(PLAIN_TEXT, { message: 'notes must not contain control characters' })
  notes?: string;
}

/** GET /api/portfolio/history: `days` (default 30, 0 = all) and `type`. */
export class HistoryQueryDto {
  @ApiPropertyOptional({ type: 'string', pattern: '^\\d{1,5}$', default: '30', description: 'Days back; 0 means all.' })
  @IsOptional()
  @Matches(/^\d{1,5}$/, { message: 'days must be a whole number from 0 to 99999 (0 means all)' })
  days?: string;

  @ApiPropertyOptional({ enum: SNAPSHOT_TYPES, description: 'Any case.' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value))
  @IsIn(SNAPSHOT_TYPES, { message: `type must be one of ${SNAPSHOT_TYPES.join(', ')}` })
  type?: SnapshotType;
}
