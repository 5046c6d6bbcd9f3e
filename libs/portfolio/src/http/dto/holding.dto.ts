import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { HOLDING_TYPES, type HoldingType } from '../../domain/holding-type.js';
import { IsFixedNumber, IsSupportedIsoDate, PLAIN_TEXT } from './rules.js';

const TICKER = /^[A-Z0-9^][A-Z0-9.\-:/^=_]{0,19}$/;
const MAX_AMOUNT = 1_000_000_000;
const DECIMALS = 6;

const upperCaseTrimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value);

/** POST /api/portfolio/holdings (../shared/spec/interface.md): symbol, holding_type, shares, average_cost; notes optional. */
export class CreateHoldingDto {
  @ApiProperty({ type: 'string', pattern: TICKER.source, description: 'A ticker; trimmed and upper-cased.', example: 'NVDA' })
  @Transform(upperCaseTrimmed)
  @IsString({ message: 'symbol is required and must be a string' })
  @Matches(TICKER, { message: 'symbol must be a ticker of 1 to 20 letters, digits or . - : / ^ = _' })
  symbol: string;

  @ApiProperty({ enum: HOLDING_TYPES })
  @IsIn(HOLDING_TYPES, { message: `holding_type must be one of ${HOLDING_TYPES.join(', ')}` })
  holding_type: HoldingType;

  @ApiProperty({ type: 'number', minimum: 0.000001, maximum: MAX_AMOUNT, description: 'At most 6 decimals.' })
  @IsFixedNumber(DECIMALS, { message: 'shares must be a number with at most 6 decimals' })
  @Min(0.000001, { message: 'shares must be greater than 0' })
  @Max(MAX_AMOUNT, { message: `shares must not exceed ${MAX_AMOUNT}` })
  shares: number;

  @ApiProperty({ type: 'number', minimum: 0, maximum: MAX_AMOUNT, description: 'At most 6 decimals.' })
  @IsFixedNumber(DECIMALS, { message: 'average_cost must be a number with at most 6 decimals' })
  @Min(0, { message: 'average_cost must not be negative' })
  @Max(MAX_AMOUNT, { message: `average_cost must not exceed ${MAX_AMOUNT}` })
  average_cost: number;

  @ApiPropertyOptional({ type: 'string', maxLength: 1000 })
  @IsOptional()
  @IsString({ message: 'notes must be a string' })
  @MaxLength(1000, { message: 'notes must be at most 1000 characters' })
  @Matches(PLAIN_TEXT, { message: 'notes must not contain control characters' })
  notes?: string;

  /** Beyond the contract: the date the position was opened. */
  @ApiPropertyOptional({ type: 'string', format: 'date', description: 'The date the position was opened (1900–2199).' })
  @IsOptional()
  @IsSupportedIsoDate({ message: 'purchase_date must be a real date YYYY-MM-DD from 1900 to 2199' })
  purchase_date?: string;
}

/** PUT /api/portfolio/holdings/{id}: every field optional; at least one is required. */
export class UpdateHoldingDto {
  @ApiPropertyOptional({ type: 'number', minimum: 0.000001, maximum: MAX_AMOUNT, description: 'At most 6 decimals.' })
  @IsOptional()
  @IsFixedNumber(DECIMALS, { message: 'shares must be a number with at most 6 decimals' })
  @Min(0.000001, { message: 'shares must be greater than 0' })
  @Max(MAX_AMOUNT, { message: `shares must not exceed ${MAX_AMOUNT}` })
  shares?: number;

  @ApiPropertyOptional({ type: 'number', minimum: 0, maximum: MAX_AMOUNT, description: 'At most 6 decimals.' })
  @IsOptional()
  @IsFixedNumber(DECIMALS, { message: 'average_cost must be a number with at most 6 decimals' })
  @Min(0, { message: 'average_cost must not be negative' })
  @Max(MAX_AMOUNT, { message: `average_cost must not exceed ${MAX_AMOUNT}` })
  average_cost?: number;

  // Absent leaves the notes as they are; null is not a way to clear them (an empty string is).
  @ApiPropertyOptional({ type: 'string', maxLength: 1000, description: 'An empty string clears the notes.' })
  @ValidateIf((_, value) => value !== undefined)
  @IsString({ message: 'notes must be a string' })
  @MaxLength(1000, { message: 'notes must be at most 1000 characters' })
  @Matches(PLAIN_TEXT, { message: 'notes must not contain control characters' })
  notes?: string;

  /** Beyond the contract. */
  @ApiPropertyOptional({ enum: HOLDING_TYPES })
  @IsOptional()
  @IsIn(HOLDING_TYPES, { message: `holding_type must be one of ${HOLDING_TYPES.join(', ')}` })
  holding_type?: HoldingType;

  /** Beyond the contract; null clears it. */
  @ApiPropertyOptional({ type: 'string', nullable: true, format: 'date', description: 'Null clears it.' })
  @ValidateIf((_, value) => value !== null && value !== undefined)
  @IsSupportedIsoDate({ message: 'purchase_date must be a real date YYYY-MM-DD from 1900 to 2199, or null' })
  purchase_date?: string | null;
}

/** A numeric path id: positive whole number. */
export class IdParams {
  @ApiProperty({ type: 'string', pattern: '^[1-9]\\d{0,15}$' })
  @Matches(/^[1-9]\d{0,15}$/, { message: 'id must be a positive whole number' })
  id: string;
}
