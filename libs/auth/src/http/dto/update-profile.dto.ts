import { IsString } from 'class-validator';

/** PUT /auth/profile. The value's own rules (length, characters) are the domain's. */
export class UpdateProfileDto {
  @IsString({ message: 'brokerage_account is required, as a string' })
  brokerage_account: string;
}
