import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { User } from '../user';
import { Instance } from './instance.entity';

/** An instance admin ("god mode"): Plane's `instance_admins`, role 20 only. One row per user. */
@Entity({ name: 'instance_admins' })
export class InstanceAdmin {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('uq_instance_admins_user', { unique: true })
  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'uuid' })
  instanceId: string;

  @ManyToOne(() => Instance, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'instance_id' })
  instance?: Instance;

  @Column({ type: 'smallint', default: 20 })
  role: number;

  @Column({ type: 'boolean', default: false })
  isVerified: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;

  @Column({ type: 'uuid', nullable: true })
  createdById: string | null;
}
