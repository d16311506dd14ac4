import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { User } from './user.entity';

/** All of the user feature's queries (the signed-in user's own row). */
@Injectable()
export class UserRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

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
