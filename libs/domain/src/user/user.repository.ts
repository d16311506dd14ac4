import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
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

/** All of the user feature's queries (the signed-in user's own row). */
@Injectable()
export class UserRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The data source's manager, for reads outside a transaction. */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /** The live user `id`, or null. */
  findById(id: string): Promise<User | null> {
    return this.dataSource.getRepository(User).findOneBy({ id });
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
}
