import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, LessThan } from 'typeorm';
import { SamlAssertion, SamlRequest } from './saml-message.entity';

/**
 * The SQL of SAML sign-in (saml.service.ts): the AuthnRequests awaiting their answer and the
 * assertion IDs already accepted. Expired rows are deleted on each write (no job needed: the
 * tables hold minutes of traffic).
 */
@Injectable()
export class SamlRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Stores a request sent (and deletes expired ones). */
  async saveRequest(row: SamlRequest): Promise<void> {
    const repo = this.dataSource.getRepository(SamlRequest);
    await repo.delete({ expiresAt: LessThan(new Date()) });
    await repo.insert(row);
  }

  /** The live (unexpired) request with this ID, or null. */
  async findRequest(id: string): Promise<SamlRequest | null> {
    const row = await this.dataSource.getRepository(SamlRequest).findOneBy({ id });
    return row && row.expiresAt.getTime() > Date.now() ? row : null;
  }

  /** Deletes a request (answered). */
  async deleteRequest(id: string): Promise<void> {
    await this.dataSource.getRepository(SamlRequest).delete({ id });
  }

  /** Whether this assertion key (`<connection id>:<assertion ID>`) was accepted and has not expired. */
  async assertionSeen(id: string): Promise<boolean> {
    const row = await this.dataSource.getRepository(SamlAssertion).findOneBy({ id });
    return !!row && row.expiresAt.getTime() > Date.now();
  }

  /**
   * Remembers an accepted assertion until `expiresAt`. False when it was already remembered
   * (a replay, also one racing on another replica: the primary key decides).
   */
  async rememberAssertion(id: string, expiresAt: Date): Promise<boolean> {
    await this.dataSource.getRepository(SamlAssertion).delete({ expiresAt: LessThan(new Date()) });
    const rows = (await this.dataSource.query(
      'INSERT INTO saml_assertions (id, expires_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id',
      [id, expiresAt],
    )) as unknown[];
    return rows.length === 1;
  }
}
