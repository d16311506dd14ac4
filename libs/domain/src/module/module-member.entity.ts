import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Module } from './module.entity';

/** A member of a module; the set is replaced as a whole on update. */
@Entity({ name: 'module_members' })
export class ModuleMember {
  @PrimaryColumn({ type: 'uuid' })
  moduleId: string;

  @ManyToOne(() => Module, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'module_id' })
  module?: Module;

  @Index('ix_module_members_member')
  @PrimaryColumn({ type: 'uuid' })
  memberId: string;
}
