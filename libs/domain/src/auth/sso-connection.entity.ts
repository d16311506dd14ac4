import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** The sign-in protocols an SSO connection can speak (`oidc`, docs/sso-oidc.md; `saml`, docs/sso-saml.md; `ldap`, docs/sso-ldap.md). */
export type SsoKind = 'oidc' | 'saml' | 'ldap';

/** One group → workspace role rule: members of `group` get `role` (20 Admin, 15 Member, 5 Guest) in `workspace_slug`. */
export interface GroupRoleMapping {
  group: string;
  workspace_slug: string;
  role: number;
}

/**
 * An enterprise sign-in connection configured by the instance admin (docs/sso-oidc.md): a kind, the
 * email domains it owns (`SsoConnectionDomain`), its rules and the kind's settings. The secret
 * (OIDC's client secret) is stored sealed (`SecretBox`, purpose `meridian:sso-connection:v1`) and
 * never answered back.
 */
@Entity({ name: 'sso_connections' })
export class SsoConnection {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 20 })
  kind: SsoKind;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'boolean', default: true })
  isEnabled: boolean;

  /** whether the owned domains may still sign in with a password (else the form goes to the provider) */
  @Column({ type: 'boolean', default: false })
  allowPassword: boolean;

  /** create unknown users at their first sign-in (false: invitation only) */
  @Column({ type: 'boolean', default: true })
  jitProvisioning: boolean;

  /** the kind's non-secret settings (OIDC: issuer, client_id, scopes, groups_claim) */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  settings: Record<string, unknown>;

  /** the kind's secret, sealed; null when none */
  @Column({ type: 'text', nullable: true })
  secret: string | null;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  groupRoleMappings: GroupRoleMapping[];

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;

  @Column({ type: 'uuid', nullable: true })
  createdById: string | null;

  @Column({ type: 'uuid', nullable: true })
  updatedById: string | null;
}
