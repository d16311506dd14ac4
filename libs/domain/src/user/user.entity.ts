import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A person (or bot) who signs in. `email` is stored lower-cased and is unique. */
@Entity({ name: 'users' })
export class User {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('uq_users_email', { unique: true })
  @Column({ type: 'varchar', length: 255 })
  email: string;

  /** argon2id PHC string; null for accounts that only use magic codes or OAuth */
  @Column({ type: 'varchar', length: 255, nullable: true })
  passwordHash: string | null;

  @Column({ type: 'varchar', length: 255, default: '' })
  firstName: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  lastName: string;

  @Column({ type: 'varchar', length: 255 })
  displayName: string;

  @Column({ type: 'text', nullable: true })
  avatar: string | null;

  /** Plane's `cover_image`: a URL (profile banner) */
  @Column({ type: 'text', nullable: true })
  coverImage: string | null;

  /** Plane's `username`: unique; a random UUID unless the user changes it */
  @Index('uq_users_username', { unique: true })
  @Column({ type: 'varchar', length: 128, default: () => 'gen_random_uuid()' })
  username: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  mobileNumber: string | null;

  @Column({ type: 'boolean', default: true })
  isActive: boolean;

  @Column({ type: 'boolean', default: false })
  isBot: boolean;

  @Column({ type: 'boolean', default: false })
  isEmailVerified: boolean;

  @Column({ type: 'varchar', length: 255, default: 'UTC' })
  userTimezone: string;

  @Column({ type: 'timestamptz', nullable: true })
  lastLoginAt: Date | null;

  @Column({ type: 'varchar', length: 30, nullable: true })
  lastLoginMedium: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
