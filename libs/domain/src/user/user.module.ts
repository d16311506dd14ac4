import { Module } from '@nestjs/common';
import { UserProfileService } from './user-profile.service';

/** The user feature: its services; exports what other features and the API modules use. */
@Module({
  providers: [UserProfileService],
  exports: [UserProfileService],
})
export class UserFeatureModule {}
