import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { ProjectScopedEntity } from '../kernel/project-scoped.entity';
import { Module } from './module.entity';

/** A link on a module (Plane `plane/db/models/module.py` ModuleLink); a URL at most once per module. */
@Entity({ name: 'module_links' })
@Index('uq_module_links_url_live', ['moduleId', 'url'], { unique: true, where: '"deleted_at" IS NULL' })
@Index('ix_module_links_module_created', ['moduleId', 'createdAt'])
export class ModuleLink extends ProjectScopedEntity {
  @Column({ type: 'uuid' })
  moduleId: string;

  @ManyToOne(() => Module, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'module_id' })
  module?: Module;

  @Column({ type: 'varchar', length: 255, nullable: true })
  title: string | null;

  @Column({ type: 'text' })
  url: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: Record<string, unknown>;
}
