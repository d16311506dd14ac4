import { Module } from '@nestjs/common';
import { UserProfileService } from './user-profile.service';
import { UserRepository } from './user.repository';

/** The user feature: its services; exports what other features and the API modules use. */
@Module({
  providers: [UserRepository, UserProfileService],
  exports: [UserProfileService],
})
export class UserFeatureModule {}
