import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { User } from './user.entity';

/** All of the user feature's queries (the signed-in user's own row). */
@Injectable()
export class UserRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The DataSource's manager, for reads and writes outside a transaction. */
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

  /** The user's `avatar` or `cover_image` (null when the user is gone). */
  async image(em: EntityManager, id: string, column: UserImage): Promise<string | null> {
    const row = await em.getRepository(User).findOne({ where: { id }, select: { id: true, [column]: true } });
    return row?.[column] ?? null;
  }

  /** Sets the user's `avatar` or `cover_image`; `onlyIf`: only while it still holds that URL. */
  async setImage(em: EntityManager, id: string, column: UserImage, url: string | null, onlyIf?: string): Promise<void> {
    await em.getRepository(User).update(onlyIf === undefined ? { id } : { id, [column]: onlyIf }, { [column]: url });
  }
}

/** The user's image columns: `avatar`, `cover_image`. */
export type UserImage = 'avatar' | 'coverImage';
