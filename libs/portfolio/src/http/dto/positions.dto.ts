import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { IsSupportedIsoDate, PLAIN_TEXT } from './rules.js';

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** GET /api/positions: `account` (an account number) narrows the list to that account. */
export class PositionsQueryDto {
  @ApiPropertyOptional({ type: 'string', maxLength: 64, description: "An account number, as the import's account settings name it." })
  @IsOptional()
  @Transform(trimmed)
  @IsString({ message: 'account must be a string' })
  @MaxLength(64, { message: 'account must be at most 64 characters' })
  @Matches(PLAIN_TEXT, { message: 'account must not contain control characters' })
  account?: string;
}

/** GET /api/positions/{symbol}: a symbol as the broker files name it; trimmed and upper-cased. */
export class PositionParams {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value))
  @IsString({ message: 'symbol must be a string' })
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  @Matches(/^[^\s\u0000-\u001F\u007F]{1,40}$/, { message: 'symbol must be 1 to 40 characters without spaces' })
  symbol: string;
}

/** GET /api/portfolio/value-history: an optional range of days, both ends included. */
export class ValueHistoryQueryDto {
  @ApiPropertyOptional({ type: 'string', format: 'date', description: 'First day (default: the first snapshot or activity).' })
  @IsOptional()
  @IsSupportedIsoDate({ message: 'start_date must be a date written YYYY-MM-DD' })
  start_date?: string;

  @ApiPropertyOptional({ type: 'string', format: 'date', description: 'Last day (default: the latest).' })
  @IsOptional()
  @IsSupportedIsoDate({ message: 'end_date must be a date written YYYY-MM-DD' })
  end_date?: string;
}
