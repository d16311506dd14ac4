import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An AuthnRequest Meridian sent to a SAML identity provider and not yet answered
 * (docs/sso-saml.md): the response's `InResponseTo` must name one of these, of the same
 * connection, within its 10 minutes; it is deleted when answered (accepted or refused).
 * In the database so that any replica can take the answer.
 */
@Entity({ name: 'saml_requests' })
export class SamlRequest {
  /** the AuthnRequest's `ID` (node-saml's `_` + 40 hex characters) */
  @PrimaryColumn({ type: 'varchar', length: 100 })
  id: string;

  @Column({ type: 'uuid' })
  connectionId: string;

  /** `app` (web app) or `space` (boards' app) */
  @Column({ type: 'varchar', length: 10 })
  site: string;

  /** where the sign-in was going (a path), or null */
  @Column({ type: 'varchar', length: 1000, nullable: true })
  nextPath: string | null;

  @Index('ix_saml_requests_expires_at')
  @Column({ type: 'timestamptz' })
  expiresAt: Date;
}

/**
 * An assertion ID Meridian accepted, kept until the assertion's own expiry (its latest
 * `NotOnOrAfter`) so the same assertion is refused if posted again (replay), on any replica.
 */
@Entity({ name: 'saml_assertions' })
export class SamlAssertion {
  /** `<connection id>:<assertion ID>` */
  @PrimaryColumn({ type: 'varchar', length: 300 })
  id: string;

  @Index('ix_saml_assertions_expires_at')
  @Column({ type: 'timestamptz' })
  expiresAt: Date;
}
