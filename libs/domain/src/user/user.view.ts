import { iso } from '../kernel/time';
import { User } from './user.entity';

/** The signed-in user's own record (Plane's `UserMeSerializer` subset). Never carries secrets. */
export function userMeView(user: User) {
  return {
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    display_name: user.displayName,
    avatar: user.avatar,
    avatar_url: user.avatar,
    cover_image: user.coverImage ?? null,
    cover_image_url: user.coverImage ?? null,
    username: user.username,
    mobile_number: user.mobileNumber ?? null,
    is_active: user.isActive,
    is_bot: user.isBot,
    is_email_verified: user.isEmailVerified,
    is_password_autoset: user.passwordHash === null,
    user_timezone: user.userTimezone,
    last_login_medium: user.lastLoginMedium,
    date_joined: iso(user.createdAt),
    created_at: iso(user.createdAt),
    updated_at: iso(user.updatedAt),
  };
}

/** Plane's UserLite: what other members may see of a user. */
export function userLiteView(user: User) {
  return {
    id: user.id,
    first_name: user.firstName,
    last_name: user.lastName,
    email: user.email,
    avatar: user.avatar,
    avatar_url: user.avatar,
    display_name: user.displayName,
  };
}

/** Who is looking at a member list: their user id and workspace role. */
export interface Viewer {
  userId: string;
  role: number;
}

/**
 * Whether a viewer may see a member's email: workspace Admins and Members see everyone's, Guests
 * only their own (Plane shows Guests the lite user, without email, in the workspace member list).
 */
export function canSeeEmail(viewer: Viewer, userId: string): boolean {
  return viewer.role >= 15 || viewer.userId === userId;
}

/** UserLite as `viewer` may see it: without `email` for a Guest looking at someone else. */
export function userLiteFor(user: User, viewer: Viewer) {
  const lite: Omit<ReturnType<typeof userLiteView>, 'email'> & { email?: string } = userLiteView(user);
  if (!canSeeEmail(viewer, user.id)) delete lite.email;
  return lite;
}
