import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/**
 * The instance (Plane's `instances` table, `plane/license/models/instance.py`): one
 * row, created on first use. `singleton` is always true and unique, so concurrent processes
 * cannot create two rows.
 */
@Entity({ name: 'instances' })
export class Instance {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('uq_instances_singleton', { unique: true })
  @Column({ type: 'boolean', default: true })
  singleton: boolean;

  @Column({ type: 'varchar', length: 255, default: 'Meridian' })
  instanceName: string;

  /** Plane's 24-hex-character instance id */
  @Column({ type: 'varchar', length: 24 })
  instanceKey: string;

  @Column({ type: 'varchar', length: 255, default: 'PLANE_COMMUNITY' })
  edition: string;

  @Column({ type: 'text', nullable: true })
  domain: string | null;

  @Column({ type: 'boolean', default: false })
  isSetupDone: boolean;

  @Column({ type: 'boolean', default: false })
  isSignupScreenVisited: boolean;

  @Column({ type: 'boolean', default: true })
  isTelemetryEnabled: boolean;

  @Column({ type: 'boolean', default: true })
  isSupportRequired: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
