import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { Profile } from './profile.entity';
import { User } from './user.entity';

/**
 * The user with this email (as given: emails are stored lower-cased), only an active one with
 * `activeOnly`; or null. A function of `em` alone: the instance set-up (`setUpInstance`, the CLI's
 * `admin create`) runs it in its transaction without Nest.
 */
export function findUserByEmail(em: EntityManager, email: string, activeOnly = false): Promise<User | null> {
  return em.getRepository(User).findOneBy(activeOnly ? { email, isActive: true } : { email });
}

/** Inserts a user row in `em`'s transaction (`save`: the returned entity has its generated columns). */
export function insertUser(em: EntityManager, row: Partial<User>): Promise<User> {
  const users = em.getRepository(User);
  return users.save(users.create(row));
}

/** The user `id`, or null, in `em`'s transaction. */
export function findUserById(em: EntityManager, id: string): Promise<User | null> {
  return em.getRepository(User).findOneBy({ id });
}

/** All of the user feature's queries (`users` and `profiles`). */
@Injectable()
export class UserRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The DataSource's manager, for reads and writes outside a transaction (the methods that take one). */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /** The live user `id` (in `em`'s transaction when given), or null. */
  findById(id: string, em: EntityManager = this.dataSource.manager): Promise<User | null> {
    return em.getRepository(User).findOneBy({ id });
  }

  /** Writes `patch` to the user `id` (a unique violation `uq_users_username` on a taken username). */
  async update(id: string, patch: Partial<User>): Promise<void> {
    await this.dataSource.getRepository(User).update({ id }, patch as never);
  }

  /** The live users among `ids`, in no order. */
  liveByIds(ids: string[], em: EntityManager = this.manager): Promise<User[]> {
    if (!ids.length) return Promise.resolve([]);
    return em.getRepository(User).findBy({ id: In(ids) });
  }

  /** The user's `avatar` or `cover_image` (null when the user is gone). */
  async image(em: EntityManager, id: string, column: UserImage): Promise<string | null> {
    const row = await em.getRepository(User).findOne({ where: { id }, select: { id: true, [column]: true } });
    return row?.[column] ?? null;
  }

  /** Sets the user's `avatar` or `cover_image`; `onlyIf`: only while it still holds that URL. */
  async setImage(em: EntityManager, id: string, column: UserImage, url: string | null, onlyIf?: string): Promise<void> {
    await em.getRepository(User).update(onlyIf === undefined ? { id } : { id, [column]: onlyIf }, { [column]: url });
  }

  // ---- sign-in, sign-up and deactivation (the auth room, through UserProfileService); `em` is the
  // caller's transaction, the manager outside any by default ----

  /** The user with this (normalised) email, or null. */
  userByEmail(email: string, em: EntityManager = this.dataSource.manager): Promise<User | null> {
    return findUserByEmail(em, email);
  }

  /** The user with this email; throws TypeORM's `EntityNotFoundError` when there is none. */
  userByEmailOrFail(email: string, em: EntityManager = this.dataSource.manager): Promise<User> {
    return em.findOneByOrFail(User, { email });
  }

  /** The user with this id, or null. */
  userById(id: string, em: EntityManager = this.dataSource.manager): Promise<User | null> {
    return findUserById(em, id);
  }

  /** The user with this id; throws TypeORM's `EntityNotFoundError` when there is none. */
  userByIdOrFail(id: string, em: EntityManager = this.dataSource.manager): Promise<User> {
    return em.findOneByOrFail(User, { id });
  }

  /** Inserts a user and answers the saved row; a taken email throws the unique violation of `uq_users_email`. */
  insertUser(em: EntityManager, row: Partial<User>): Promise<User> {
    return insertUser(em, row);
  }

  /** Changes columns of one user. */
  async updateUser(em: EntityManager, id: string, patch: Partial<User>): Promise<void> {
    await em.update(User, { id }, patch);
  }

  /** Sets the user's password hash only while it has none; false when it already has one. */
  async setPasswordIfUnset(em: EntityManager, id: string, passwordHash: string): Promise<boolean> {
    const result = await em
      .getRepository(User)
      .createQueryBuilder()
      .update(User)
      .set({ passwordHash })
      .where('id = :id AND password_hash IS NULL', { id })
      .execute();
    return !!result.affected;
  }

  /** Resets the profile's onboarding: no last workspace, tour and every onboarding step undone. */
  async resetOnboarding(em: EntityManager, userId: string): Promise<void> {
    await em.update(
      Profile,
      { userId },
      {
        lastWorkspaceId: null,
        isTourCompleted: false,
        isOnboarded: false,
        onboardingStep: {
          workspace_join: false,
          profile_complete: false,
          workspace_create: false,
          workspace_invite: false,
        },
      },
    );
  }

  /** Creates the user's profile row unless it exists (`ON CONFLICT DO NOTHING`). */
  async insertProfileIfMissing(em: EntityManager, userId: string): Promise<void> {
    await em.createQueryBuilder().insert().into(Profile).values({ userId }).orIgnore().execute();
  }

  /** The user's profile row; throws TypeORM's `EntityNotFoundError` when there is none. */
  profileOf(em: EntityManager, userId: string): Promise<Profile> {
    return em.getRepository(Profile).findOneByOrFail({ userId });
  }

  /** The profile row by id; throws TypeORM's `EntityNotFoundError` when gone. */
  profileById(em: EntityManager, id: string): Promise<Profile> {
    return em.getRepository(Profile).findOneByOrFail({ id });
  }

  /** Updates the profile row's columns in `patch`. */
  async updateProfile(em: EntityManager, id: string, patch: Partial<Profile>): Promise<void> {
    await em.update(Profile, { id }, patch as never);
  }
}

/** The user's image columns: `avatar`, `cover_image`. */
export type UserImage = 'avatar' | 'coverImage';
