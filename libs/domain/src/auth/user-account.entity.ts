import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { User } from '../user';

/**
 * A link between a user and an OAuth provider's account (Plane's `accounts` table, without the
 * provider's tokens: Meridian only signs people in and never calls the provider afterwards).
 */
@Entity({ name: 'user_accounts' })
@Index('uq_user_accounts_provider_account', ['provider', 'providerAccountId'], { unique: true })
export class UserAccount {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('ix_user_accounts_user')
  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  /** github | google | gitlab */
  @Column({ type: 'varchar', length: 30 })
  provider: string;

  @Column({ type: 'varchar', length: 255 })
  providerAccountId: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  lastLoginAt: Date | null;
}
