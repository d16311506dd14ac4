import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** Plane's default `onboarding_step`. */
export const DEFAULT_ONBOARDING_STEP = {
  profile_complete: false,
  workspace_create: false,
  workspace_invite: false,
  workspace_join: false,
};

/**
 * A user's app settings (Plane's `Profile`, `plane/db/models/user.py`): one
 * row per user, created on first read. Billing fields are kept for Plane's clients and unused.
 */
@Entity({ name: 'profiles' })
export class Profile {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('uq_profiles_user', { unique: true })
  @Column({ type: 'uuid' })
  userId: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  theme: Record<string, unknown>;

  @Column({ type: 'boolean', default: false })
  isTourCompleted: boolean;

  @Column({
    type: 'jsonb',
    default: () =>
      `'{"workspace_join": false, "profile_complete": false, "workspace_create": false, "workspace_invite": false}'`,
  })
  onboardingStep: Record<string, unknown>;

  @Column({ type: 'text', nullable: true })
  useCase: string | null;

  @Column({ type: 'varchar', length: 300, nullable: true })
  role: string | null;

  @Column({ type: 'boolean', default: false })
  isOnboarded: boolean;

  @Column({ type: 'uuid', nullable: true })
  lastWorkspaceId: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  billingAddressCountry: string | null;

  @Column({ type: 'jsonb', nullable: true })
  billingAddress: Record<string, unknown> | null;

  @Column({ type: 'boolean', default: false })
  hasBillingAddress: boolean;

  @Column({ type: 'varchar', length: 255, default: '' })
  companyName: string;

  @Column({ type: 'boolean', default: false })
  isSmoothCursorEnabled: boolean;

  @Column({ type: 'boolean', default: false })
  isMobileOnboarded: boolean;

  @Column({
    type: 'jsonb',
    default: () => `'{"workspace_join": false, "profile_complete": false, "workspace_create": false}'`,
  })
  mobileOnboardingStep: Record<string, unknown>;

  @Column({ type: 'boolean', default: false })
  mobileTimezoneAutoSet: boolean;

  @Column({ type: 'varchar', length: 255, default: 'en' })
  language: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
