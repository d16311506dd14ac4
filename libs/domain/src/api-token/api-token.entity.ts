import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import type { Workspace } from '../workspace';
import type { User } from '../user';
import { BaseEntity } from '../kernel/base.entity';

/**
 * An API key for the External API (Plane's `APIToken`, `plane/db/models/api.py`), bound to
 * one workspace. Unlike Plane, the key itself is never stored in clear: only its SHA-256
 * `tokenDigest`, and for the workspace's service token (`isService`, at most one live per
 * workspace) also `tokenSealed`, the key encrypted with `SecretBox` so that
 * `POST service-api-tokens/` can answer it again as Plane does.
 */
@Entity({ name: 'api_tokens' })
@Index('uq_api_tokens_service_live', ['workspaceId'], {
  unique: true,
  where: '"is_service" = true AND "deleted_at" IS NULL',
})
export class ApiToken extends BaseEntity {
  @Column({ type: 'varchar', length: 255 })
  label: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Index('uq_api_tokens_digest', { unique: true })
  @Column({ type: 'char', length: 64 })
  tokenDigest: string;

  @Column({ type: 'boolean', default: true })
  isActive: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  lastUsed: Date | null;

  /** 0 human, 1 bot */
  @Column({ type: 'smallint', default: 0 })
  userType: number;

  @Column({ type: 'timestamptz', nullable: true })
  expiredAt: Date | null;

  @Column({ type: 'boolean', default: false })
  isService: boolean;

  /**
   * Service tokens only: `v1:<iv>:<tag>:<ciphertext>` (SecretBox, key from `SECRET_KEY`) of the key;
   * null for other keys. Never loaded by `find` (`select: false`); read by the repository only.
   */
  @Column({ type: 'text', nullable: true, select: false })
  tokenSealed?: string | null;

  @Index('ix_api_tokens_user')
  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Index('ix_api_tokens_workspace')
  @Column({ type: 'uuid' })
  workspaceId: string;

  @ManyToOne('Workspace', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Workspace;
}
