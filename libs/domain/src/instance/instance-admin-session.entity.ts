import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { User } from '../user';

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
