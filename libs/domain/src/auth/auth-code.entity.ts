import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { User } from '../user';

/**
 * What a one-time secret is for:
 * - `magic`: a sign-in code mailed to `email` (10 minutes, at most 5 wrong tries);
 * - `password_reset`: a reset token mailed to the user (1 hour);
 * - `oauth`: no longer issued (the OAuth callback of earlier versions handed one to the web app);
 *   old rows expire and are purged like the others.
 */
export type AuthCodeKind = 'magic' | 'password_reset' | 'oauth';

/**
 * A single-use secret. Only its SHA-256 digest is stored; `usedAt` marks its use, `attempts`
 * counts wrong guesses (magic codes).
 */
@Entity({ name: 'auth_codes' })
@Index('ix_auth_codes_kind_email', ['kind', 'email'])
export class AuthCode {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 20 })
  kind: AuthCodeKind;

  /** lower-cased; the address a magic code was sent to */
  @Column({ type: 'varchar', length: 255, nullable: true })
  email: string | null;

  @Index('ix_auth_codes_user')
  @Column({ type: 'uuid', nullable: true })
  userId: string | null;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Index('uq_auth_codes_digest', { unique: true })
  @Column({ type: 'char', length: 64 })
  digest: string;

  @Column({ type: 'int', default: 0 })
  attempts: number;

  /** `oauth` codes: the provider, kept as the session's medium */
  @Column({ type: 'varchar', length: 30, nullable: true })
  medium: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  usedAt: Date | null;
}
