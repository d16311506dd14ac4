import { MeridianError, validationError } from '#common';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { isUniqueViolation } from '../kernel/db-errors';
import { isTimezone } from '../kernel/timezone';
import { User } from './user.entity';
import { findUserByEmail, findUserById, UserRepository } from './user.repository';
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
   * (the published boards render them by name and avatar only).
   */
  liveUsers(ids: string[]): Promise<User[]> {
    return this.users.liveByIds([...new Set(ids)]);
  }

  /**
   * The user `id` (entity, active or not), or null; in the caller's transaction when `em` is given
   * (the instance admin's refresh checks the user in the transaction that holds the session).
   */
  findUser(id: string, em: EntityManager = this.users.manager): Promise<User | null> {
    return findUserById(em, id);
  }

  /**
   * The user with this email (as given: emails are stored lower-cased), only an active one with
   * `activeOnly`; or null (the instance admins' sign-in and `POST /api/instances/admins/`).
   */
  findByEmail(email: string, activeOnly = false, em: EntityManager = this.users.manager): Promise<User | null> {
    return findUserByEmail(em, email, activeOnly);
  }
}
