import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { Profile } from './profile.entity';
import { User } from './user.entity';

/** All of the user feature's queries (users and their profile rows). */
@Injectable()
export class UserRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The live user `id` (in `em`'s transaction when given), or null. */
  findById(id: string, em: EntityManager = this.dataSource.manager): Promise<User | null> {
    return em.getRepository(User).findOneBy({ id });
  }

  /** Writes `patch` to the user `id` (a unique violation `uq_users_username` on a taken username). */
  async update(id: string, patch: Partial<User>): Promise<void> {
    await this.dataSource.getRepository(User).update({ id }, patch as never);
  }

  /** The live users among `ids`, in no order. */
  liveByIds(ids: string[]): Promise<User[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.dataSource.getRepository(User).findBy({ id: In(ids) });
  }

  /** The data source's manager, for reads outside a transaction. */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /** The user `id` (in `em`'s transaction); throws TypeORM's `EntityNotFoundError` when there is none. */
  findByIdOrFail(em: EntityManager, id: string): Promise<User> {
    return em.getRepository(User).findOneByOrFail({ id });
  }

  /** The user with this email (as stored: lower-cased), in `em`'s transaction, or null. */
  findByEmail(em: EntityManager, email: string): Promise<User | null> {
    return em.getRepository(User).findOneBy({ email });
  }

  /** Inserts a user row (`save`: the returned entity has its generated columns; `uq_users_email` on a taken email). */
  insert(em: EntityManager, row: Partial<User>): Promise<User> {
    return em.save(em.create(User, row));
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
