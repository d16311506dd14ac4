import { Page, PageRequest, paginate } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { hotRead } from '../kernel/hot-query';
import { ApiToken } from './api-token.entity';
import { SQL_VERIFY_API_KEY } from './api-token.sql';

/** The row of `SQL_VERIFY_API_KEY`. */
export interface VerifiedApiKeyRow {
  id: string;
  workspace_id: string;
  last_used: Date | null;
  expired_at: Date | null;
  user_id: string;
  email: string;
}

/** All SQL of the api-token feature. */
@Injectable()
export class ApiTokenRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A page of `userId`'s own non-service keys in the workspace (the cursor envelope's order). */
  async listOwnPage(workspaceId: string, userId: string, page: PageRequest): Promise<Page<ApiToken>> {
    const qb = this.dataSource
      .getRepository(ApiToken)
      .createQueryBuilder('t')
      .where('t.workspaceId = :workspaceId AND t.userId = :userId AND t.isService = false', { workspaceId, userId });
    return paginate(qb, page);
  }

  /** The usable key with this digest, its user and workspace (`SQL_VERIFY_API_KEY`), or undefined. */
  async findUsableByDigest(digest: string): Promise<VerifiedApiKeyRow | undefined> {
    const [row] = (await hotRead(this.dataSource, SQL_VERIFY_API_KEY, [digest])) as VerifiedApiKeyRow[];
    return row;
  }

  /** Sets `last_used` to now as a plain statement, so that bookkeeping does not move `updated_at`. */
  async touchLastUsed(id: string): Promise<void> {
    await this.dataSource.query('UPDATE api_tokens SET last_used = now() WHERE id = $1', [id]);
  }
}
