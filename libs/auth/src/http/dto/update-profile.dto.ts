import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';

/** PUT /auth/profile. The value's own rules (length, characters) are the domain's. */
export class UpdateProfileDto {
  @ApiProperty({ description: 'The brokerage account number, as on the broker files.', type: 'string', example: '12345678' })
  @IsString({ message: 'brokerage_account is required, as a string' })
  brokerage_account: string;
}
