import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { SsoConnection } from './sso-connection.entity';

/** An email domain (lower case, e.g. `example.com`) and the one SSO connection that owns it. */
@Entity({ name: 'sso_connection_domains' })
export class SsoConnectionDomain {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  domain: string;

  @Index('ix_sso_connection_domains_connection')
  @Column({ type: 'uuid' })
  connectionId: string;

  @ManyToOne(() => SsoConnection, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'connection_id' })
  connection?: SsoConnection;
}
