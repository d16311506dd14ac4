import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/**
 * A configuration value an instance admin set (Plane's `instance_configurations`). A key without a
 * row falls back to the environment, then to Plane's default (`InstanceSettings`). When
 * `isEncrypted`, `value` is `v1:<iv>:<tag>:<ciphertext>` (AES-256-GCM, see `secret-box.ts`).
 */
@Entity({ name: 'instance_configurations' })
export class InstanceConfiguration {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('uq_instance_configurations_key', { unique: true })
  @Column({ type: 'varchar', length: 100 })
  key: string;

  @Column({ type: 'text' })
  value: string;

  @Column({ type: 'varchar', length: 100 })
  category: string;

  @Column({ type: 'boolean', default: false })
  isEncrypted: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;

  @Column({ type: 'uuid', nullable: true })
  createdById: string | null;

  @Column({ type: 'uuid', nullable: true })
  updatedById: string | null;
}
