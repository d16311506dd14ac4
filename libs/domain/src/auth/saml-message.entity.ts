import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { AuthSession } from './auth-session.entity';

/**
 * An AuthnRequest (or LogoutRequest, `purpose`) Meridian sent to a SAML identity provider and not yet answered
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

  /** `authn` (an AuthnRequest: answered at the ACS) or `logout` (a LogoutRequest: answered at the SLO service) */
  @Column({ type: 'varchar', length: 10, default: 'authn' })
  purpose: 'authn' | 'logout';

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

/**
 * What single logout needs of a session opened by a SAML sign-in (docs/sso-saml.md): the connection,
 * the assertion's `NameID` (and its `Format`) and the IdP's `SessionIndex`. Identifiers, no secret:
 * the IdP names them in its LogoutRequest and Meridian in its own. Deleted with the session.
 */
@Entity({ name: 'saml_sessions' })
@Index('ix_saml_sessions_connection_name_id', ['connectionId', 'nameId'])
export class SamlSession {
  @PrimaryColumn({ type: 'uuid' })
  sessionId: string;

  @ManyToOne('AuthSession', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'session_id' })
  session?: AuthSession;

  /** the SSO connection signed in through (no foreign key: a deleted connection's rows match nothing) */
  @Column({ type: 'uuid' })
  connectionId: string;

  @Column({ type: 'varchar', length: 1000 })
  nameId: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  nameIdFormat: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  sessionIndex: string | null;
}
