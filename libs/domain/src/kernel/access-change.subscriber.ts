import { AccessCache } from '#common';
import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  DataSource,
  EntityMetadata,
  EntitySubscriberInterface,
  QueryRunner,
  TransactionCommitEvent,
  TransactionRollbackEvent,
} from 'typeorm';

/**
 * The tables whose rows decide who may do what: a change to any of them may revoke or grant
 * access (a key revoked or expired, a session signed out, a user deactivated, a member removed or
 * given another role, a workspace or project deleted, a project made secret).
 */
const ACCESS_TABLES = new Set([
  'api_tokens',
  'auth_sessions',
  'auth_tokens',
  'users',
  'workspaces',
  'workspace_members',
  'projects',
  'project_members',
]);
/** New credentials grant nothing that is cached (only known credentials are cached), so their inserts do not count. */
const INSERT_NEUTRAL = new Set(['api_tokens', 'auth_sessions', 'auth_tokens', 'users']);

const CHANGED = 'meridian:access-changed';

/**
 * Empties `AccessCache` when access may have changed: at once when an entity of `ACCESS_TABLES`
 * is inserted, updated, removed or soft-removed through TypeORM (entity manager, repository or
 * query builder), and again when the transaction that made the change commits (a request that
 * read the old rows before the commit cannot keep them: see `AccessCache.get`).
 *
 * Writes that bypass TypeORM's events do not count; the only ones on these tables are
 * bookkeeping (`api_tokens.last_used`, `auth_sessions.last_used_at` with `callListeners(false)`).
 */
@Injectable()
export class AccessChangeSubscriber implements EntitySubscriberInterface, OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Optional() private readonly cache?: AccessCache,
  ) {}

  onModuleInit(): void {
    if (this.cache?.enabled && !this.dataSource.subscribers.includes(this)) this.dataSource.subscribers.push(this);
  }

  afterInsert(event: { metadata: EntityMetadata; queryRunner: QueryRunner }): void {
    if (!INSERT_NEUTRAL.has(event.metadata.tableName)) this.changed(event);
  }

  afterUpdate(event: { metadata: EntityMetadata; queryRunner: QueryRunner }): void {
    this.changed(event);
  }

  afterRemove(event: { metadata: EntityMetadata; queryRunner: QueryRunner }): void {
    this.changed(event);
  }

  afterSoftRemove(event: { metadata: EntityMetadata; queryRunner: QueryRunner }): void {
    this.changed(event);
  }

  afterRecover(event: { metadata: EntityMetadata; queryRunner: QueryRunner }): void {
    this.changed(event);
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    const data = event.queryRunner.data as Record<string, unknown>;
    if (!data[CHANGED]) return;
    delete data[CHANGED];
    this.cache?.invalidate();
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    delete (event.queryRunner.data as Record<string, unknown>)[CHANGED];
  }

  private changed({ metadata, queryRunner }: { metadata: EntityMetadata; queryRunner: QueryRunner }): void {
    if (!metadata || !ACCESS_TABLES.has(metadata.tableName)) return;
    this.cache?.invalidate();
    if (queryRunner?.isTransactionActive) (queryRunner.data as Record<string, unknown>)[CHANGED] = true;
  }
}
