import { MeridianError, validationError } from '#common';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { isUniqueViolation } from '../kernel/db-errors';
import { isTimezone } from '../kernel/timezone';
import { Profile } from './profile.entity';
import { User } from './user.entity';
import { UserImage, UserRepository } from './user.repository';
import { userMeView } from './user.view';

/** Profile fields a user may change on themself (Plane `plane/app/serializers/user.py` UserSerializer). */
export interface UpdateMeInput {
  first_name?: string;
  last_name?: string;
  display_name?: string;
  username?: string;
  avatar?: string | null;
  cover_image?: string | null;
  user_timezone?: string;
  mobile_number?: string | null;
}

export type UserMeJson = ReturnType<typeof userMeView>;

/** The signed-in user's own record: `GET`/`PATCH /api/users/me/`. */
@Injectable()
export class UserProfileService {
  constructor(private readonly users: UserRepository) {}

  async me(userId: string): Promise<UserMeJson> {
    const user = await this.users.findById(userId);
    if (!user) throw new MeridianError('AUTHENTICATION_REQUIRED');
    return userMeView(user);
  }

  /**
   * Partial update of the profile fields. An unknown time zone is a 422; a username already used
   * is a 409 `CONFLICT`. Email, password and flags are not writable here.
   */
  async update(userId: string, input: UpdateMeInput): Promise<UserMeJson> {
    if (input.user_timezone !== undefined && !isTimezone(input.user_timezone)) {
      throw validationError({ user_timezone: ['Not a valid time zone.'] });
    }
    const patch: Partial<User> = {};
    if (input.first_name !== undefined) patch.firstName = input.first_name;
    if (input.last_name !== undefined) patch.lastName = input.last_name;
    if (input.display_name !== undefined) patch.displayName = input.display_name;
    if (input.username !== undefined) patch.username = input.username;
    if (input.avatar !== undefined) patch.avatar = input.avatar;
    if (input.cover_image !== undefined) patch.coverImage = input.cover_image;
    if (input.user_timezone !== undefined) patch.userTimezone = input.user_timezone;
    if (input.mobile_number !== undefined) patch.mobileNumber = input.mobile_number;
    if (Object.keys(patch).length) {
      try {
        await this.users.update(userId, patch);
      } catch (err) {
        if (isUniqueViolation(err, 'uq_users_username'))
          throw new MeridianError('CONFLICT', 'This username is already taken.');
        throw err;
      }
    }
    return this.me(userId);
  }

  /**
   * The live users among `ids` (entities, in no order), for the rooms above that show people
   * (the published boards render them by name and avatar only; a webhook delivery's actor, in the
   * committing transaction `em`).
   */
  liveUsers(ids: string[], em?: EntityManager): Promise<User[]> {
    return this.users.liveByIds([...new Set(ids)], em);
  }

  /**
   * The user's `avatar` or `cover_image` URL (`column` `avatar` | `coverImage`; null when unset or
   * the user is gone), in the caller's transaction when `em` is given: for the rooms above (an
   * uploaded avatar or cover replaces it).
   */
  image(userId: string, column: UserImage, em: EntityManager = this.users.manager): Promise<string | null> {
    return this.users.image(em, userId, column);
  }

  /**
   * Sets the user's `avatar` or `cover_image` to `url` (null clears it); with `onlyIf`, only while
   * it still holds that URL (a deleted upload clears the image only if it is still the image). In
   * the caller's transaction when `em` is given.
   */
  setImage(
    userId: string,
    column: UserImage,
    url: string | null,
    onlyIf?: string,
    em: EntityManager = this.users.manager,
  ): Promise<void> {
    return this.users.setImage(em, userId, column, url, onlyIf);
  }

  // ---- the accounts the auth room signs in, creates and deactivates; `em` is the caller's
  // transaction (the sign-up, the session's opening, the deactivation), the manager outside any
  // when omitted

  /** The user with this (normalised, lower-case) email, or null: the account a sign-in or sign-up finds. */
  userByEmail(email: string, em?: EntityManager): Promise<User | null> {
    return this.users.userByEmail(email, em);
  }

  /**
   * The user with this email; throws TypeORM's `EntityNotFoundError` (a 404 through the error
   * filter) when there is none: for a row known to exist (created by a concurrent sign-up).
   */
  userByEmailOrFail(email: string, em?: EntityManager): Promise<User> {
    return this.users.userByEmailOrFail(email, em);
  }

  /** The user with this id, active or not, or null (a session's, a link's or a reset token's user). */
  userById(id: string, em?: EntityManager): Promise<User | null> {
    return this.users.userById(id, em);
  }

  /** The user with this id; throws TypeORM's `EntityNotFoundError` when there is none (the signed-in user). */
  userByIdOrFail(id: string, em?: EntityManager): Promise<User> {
    return this.users.userByIdOrFail(id, em);
  }

  /**
   * Creates a user (Plane's sign-up: `plane/authentication/provider/credentials/email.py`, magic
   * code, OAuth and SSO) and answers the saved row with its generated columns. A taken email throws
   * the unique violation of `uq_users_email`, which the caller turns into its answer.
   */
  createUser(row: Partial<User>, em?: EntityManager): Promise<User> {
    return this.users.insertUser(em ?? this.users.manager, row);
  }

  /**
   * Writes columns of one user with no rule of this room: the password hash, `is_email_verified`,
   * `is_active`, `last_login_at` and `last_login_medium` the sign-in flows and the deactivation
   * set (the user's own profile fields go through `update`).
   */
  async updateUser(id: string, patch: Partial<User>, em?: EntityManager): Promise<void> {
    await this.users.updateUser(em ?? this.users.manager, id, patch);
  }

  /**
   * Sets the first password of an account that has none (Plane's `SetUserPasswordEndpoint`); false
   * when it already has one (a concurrent set), in one statement.
   */
  setPasswordIfUnset(id: string, passwordHash: string, em?: EntityManager): Promise<boolean> {
    return this.users.setPasswordIfUnset(em ?? this.users.manager, id, passwordHash);
  }

  /**
   * Resets the profile's onboarding (Plane's `UserEndpoint.deactivate`): no last workspace, the
   * tour and every onboarding step undone. No profile row, nothing changes.
   */
  async resetOnboarding(userId: string, em?: EntityManager): Promise<void> {
    await this.users.resetOnboarding(em ?? this.users.manager, userId);
  }

  // ---- reads and writes for the rooms above (members, invitations, the importer)

  /**
   * The user's profile row (Plane's `Profile`), created on first use (`ON CONFLICT DO NOTHING`,
   * then read); in the caller's transaction when `em` is given. For the member room's profile routes.
   */
  async ensureProfile(userId: string, em: EntityManager = this.users.manager): Promise<Profile> {
    await this.users.insertProfileIfMissing(em, userId);
    return this.users.profileOf(em, userId);
  }

  /** Writes `patch` to the profile row `id` and answers the row as stored (`EntityNotFoundError` when gone). */
  async updateProfile(id: string, patch: Partial<Profile>, em: EntityManager = this.users.manager): Promise<Profile> {
    if (Object.keys(patch).length) await this.users.updateProfile(em, id, patch);
    return this.users.profileById(em, id);
  }
}
