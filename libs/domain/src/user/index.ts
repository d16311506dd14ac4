export { Profile } from './profile.entity';
export { User } from './user.entity';
export { canSeeEmail, userLiteFor, userLiteView, userMeView } from './user.view';
export type { Viewer } from './user.view';
export { UserProfileService } from './user-profile.service';
export type { UpdateMeInput, UserMeJson } from './user-profile.service';
export { UserFeatureModule } from './user.module';
export { findUserByEmail, insertUser } from './user.repository';
