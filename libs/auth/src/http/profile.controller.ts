import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, type AuthenticatedUser } from '@app/shared';
import { ApiFailures, ApiJson, ApiSignedIn } from '@app/shared/openapi';
import { ProfileService, type Profile } from '../application/profile.service.js';
import { UpdateProfileDto } from './dto/update-profile.dto.js';

export interface ProfileResponse {
  success: true;
  profile: {
    email: string;
    name: string | null;
    brokerage_account: string | null;
    account_id: number | null;
    created_at: string;
    last_login: string | null;
  };
}

/** The signed-in user's profile (../shared/spec/decisions.md §2). */
@ApiTags('Sign-in and session')
@ApiSignedIn()
@Controller('auth/profile')
export class ProfileController {
  constructor(private readonly profiles: ProfileService) {}

  @Get()
  @ApiOperation({ summary: "The signed-in user's profile" })
  @ApiJson('ProfileResponse', 'The profile.')
  async show(@CurrentUser() user: AuthenticatedUser): Promise<ProfileResponse> {
    return toResponse(await this.profiles.profileOf(user.id));
  }

  /** Sets the brokerage account number the imports need. */
  @Put()
  @ApiOperation({ summary: 'Set the brokerage account number the imports need' })
  @ApiJson('ProfileResponse', 'The profile as stored.')
  @ApiFailures(400, 409)
  async update(@CurrentUser() user: AuthenticatedUser, @Body() body: UpdateProfileDto): Promise<ProfileResponse> {
    return toResponse(await this.profiles.setBrokerageAccount(user.id, body.brokerage_account));
  }
}

function toResponse(profile: Profile): ProfileResponse {
  return {
    success: true,
    profile: {
      email: profile.email,
      name: profile.name,
      brokerage_account: profile.brokerageAccount,
      account_id: profile.accountId,
      created_at: profile.createdAt.toISOString(),
      last_login: profile.lastLogin === null ? null : profile.lastLogin.toISOString(),
    },
  };
}
