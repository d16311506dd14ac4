import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { AuthSession } from './auth-session.entity';

/** `web`: the web session cookie's token (Plane's `session-id`), never accepted as a Bearer token. */
export type AuthTokenKind = 'access' | 'refresh' | 'web';

/**
 * An opaque session credential. Only its SHA-256 digest is stored; the value itself is shown once,
 * in the sign-in response. A refresh token is single use: `usedAt` marks its rotation.
 */
@Entity({ name: 'auth_tokens' })
export class AuthToken {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('ix_auth_tokens_session')
  @Column({ type: 'uuid' })
  sessionId: string;

  @ManyToOne(() => AuthSession, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'session_id' })
  session?: AuthSession;

  @Column({ type: 'varchar', length: 10 })
  kind: AuthTokenKind;

  @Index('uq_auth_tokens_digest', { unique: true })
  @Column({ type: 'char', length: 64 })
  digest: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  usedAt: Date | null;
}
