import {
  Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn,
} from 'typeorm';
import type { User } from '../user';

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

/**
 * An instance admin session: a separate kind from user sessions (Plane's separate
 * `admin-session-id` cookie). Holds the SHA-256 digests of one live access token and one live
 * refresh token; both rotate on refresh. The session ends at `expiresAt` (default 8 hours after
 * sign-in), at sign-out, or when the user stops being an instance admin.
 */
@Entity({ name: 'instance_admin_sessions' })
export class InstanceAdminSession {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('ix_instance_admin_sessions_user')
  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Index('uq_instance_admin_sessions_access', { unique: true })
  @Column({ type: 'char', length: 64 })
  accessDigest: string;

  @Column({ type: 'timestamptz' })
  accessExpiresAt: Date;

  @Index('uq_instance_admin_sessions_refresh', { unique: true })
  @Column({ type: 'char', length: 64 })
  refreshDigest: string;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @Column({ type: 'varchar', length: 512, nullable: true })
  userAgent: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ipAddress: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
