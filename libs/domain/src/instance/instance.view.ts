import { meridianVersion } from '#common';
import { iso } from '../kernel/time';
import { User } from '../user';
import type { Instance } from './instance.entity';
import type { InstanceAdmin } from './instance-admin.entity';
import { INSTANCE_VERSION } from './instance-setup';

/**
 * Plane's `InstanceSerializer` subset, plus `workspaces_exist`
 * (`plane/license/api/serializers/instance.py`, `GET /api/instances/`). `current_version` stays
 * Plane's (its clients compare it); `meridian_version` is Meridian's own.
 */
export function instanceView(instance: Instance, workspacesExist: boolean) {
  return {
    id: instance.id,
    instance_id: instance.instanceKey,
    instance_name: instance.instanceName,
    current_version: INSTANCE_VERSION,
    latest_version: INSTANCE_VERSION,
    meridian_version: meridianVersion(),
    edition: instance.edition,
    domain: instance.domain,
    is_setup_done: instance.isSetupDone,
    is_signup_screen_visited: instance.isSignupScreenVisited,
    is_telemetry_enabled: instance.isTelemetryEnabled,
    is_support_required: instance.isSupportRequired,
    is_verified: false,
    is_test: false,
    workspaces_exist: workspacesExist,
    created_at: iso(instance.createdAt),
    updated_at: iso(instance.updatedAt),
  };
}

/** Plane's `UserAdminLiteSerializer`: the admin's user as instance admin pages show it. */
export function adminUserView(user: User) {
  return {
    id: user.id,
    first_name: user.firstName,
    last_name: user.lastName,
    avatar: user.avatar,
    avatar_url: user.avatar,
    is_bot: user.isBot,
    display_name: user.displayName,
    email: user.email,
    is_active: user.isActive,
    last_login_medium: user.lastLoginMedium,
  };
}

/** Plane's `InstanceAdminMeSerializer` (`plane/license/api/serializers/admin.py`): the session check's `user`. */
export function adminSessionUserView(user: User) {
  return {
    id: user.id,
    avatar: user.avatar,
    avatar_url: user.avatar,
    cover_image: user.coverImage,
    date_joined: iso(user.createdAt),
    display_name: user.displayName,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    is_active: user.isActive,
    is_bot: user.isBot,
    is_email_verified: user.isEmailVerified,
    user_timezone: user.userTimezone,
    username: user.username,
    is_password_autoset: user.passwordHash === null,
  };
}

/** Plane's `InstanceAdminSerializer`: `{id, user, instance, role, is_verified, user_detail, …}`. */
export function instanceAdminView(admin: InstanceAdmin, user: User) {
  return {
    id: admin.id,
    user: admin.userId,
    instance: admin.instanceId,
    role: admin.role,
    is_verified: admin.isVerified,
    user_detail: adminUserView(user),
    created_at: iso(admin.createdAt),
    updated_at: iso(admin.updatedAt),
    created_by: admin.createdById,
  };
}
