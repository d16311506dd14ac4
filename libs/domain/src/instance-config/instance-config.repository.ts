import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { InstanceConfiguration } from './instance-configuration.entity';

/** All SQL of the instance-config feature (the stored configuration values, `instance_configurations`). */
@Injectable()
export class InstanceConfigRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Every stored configuration row. */
  all(): Promise<InstanceConfiguration[]> {
    return this.dataSource.getRepository(InstanceConfiguration).find();
  }

  /** The stored row of `key`, or null. */
  findByKey(em: EntityManager, key: string): Promise<InstanceConfiguration | null> {
    return em.getRepository(InstanceConfiguration).findOneBy({ key });
  }

  /** Deletes the stored row of `key` (if any). */
  async deleteKey(em: EntityManager, key: string): Promise<void> {
    await em.getRepository(InstanceConfiguration).delete({ key });
  }

  /** Inserts a configuration row. */
  async insert(em: EntityManager, row: Partial<InstanceConfiguration>): Promise<void> {
    await em.getRepository(InstanceConfiguration).insert(row as never);
  }

  /** Updates one configuration row. */
  async update(em: EntityManager, id: string, patch: Partial<InstanceConfiguration>): Promise<void> {
    await em.getRepository(InstanceConfiguration).update({ id }, patch as never);
  }
}
