import {
  APP_CONFIG,
  AppConfig,
  AuditActor,
  MeridianError,
  Page,
  PageRequest,
  Principal,
  randomHex,
  sha256,
  validationError,
} from '#common';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SecretBox } from '../instance-config';
import { auditActorById, recordAudit } from '../kernel/audit';
import { lockWorkspace } from '../kernel/locks';
import { ApiToken } from './api-token.entity';
import { ApiTokenRepository } from './api-token.repository';
import { apiTokenView } from './api-token.view';

export interface CreateApiTokenInput {
  label?: string;
  description?: string;
  expired_at?: Date | null;
}

/** What the owner may change on a key: `PATCH /api/workspaces/{slug}/api-tokens/{id}/`. */
export interface UpdateApiTokenInput {
  label?: string;
  description?: string;
  is_active?: boolean;
  expired_at?: Date | null;
}

export type ApiTokenJson = ReturnType<typeof apiTokenView>;

/** `last_used` is written at most this often per token, not on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** Prefix of every API key; Plane's format is `plane_api_` + 32 hex characters. */
export const API_KEY_PREFIX = 'plane_api_';

/** HKDF purpose of the key that seals service tokens (distinct from the other sealed secrets'). */
export const SERVICE_TOKEN_PURPOSE = 'meridian:service-api-token:v1';

/**
 * API keys for the External API. Keys are shown once; the database holds only their SHA-256,
 * except the workspace's service token, which is also kept sealed (`SecretBox`) so that
 * `serviceToken` can answer it again.
 */
@Injectable()
export class ApiTokenService {
  private readonly box: SecretBox;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tokens: ApiTokenRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.box = new SecretBox(config.secret.key, SERVICE_TOKEN_PURPOSE);
  }

  /**
   * The workspace's service token (Plane 0.25.3 `app/views/api.py` `ServiceApiTokenEndpoint.post`):
   * the live one, `created: false` (Plane's 200), or a new one made for `userId` (`is_service`,
   * description "Service Token", a random label), `created: true` (Plane's 201). It authenticates
   * as `X-API-Key` like any key of `userId`. A live one that no longer authenticates (its user gone
   * from the workspace or deactivated, expired, inactive) or whose sealed key cannot be opened (another
   * `SECRET_KEY`) is revoked and replaced. The workspace row's lock makes concurrent calls answer
   * one token; the partial unique index `uq_api_tokens_service_live` backs that up.
   */
  async serviceToken(
    workspaceId: string,
    userId: string,
    actor: AuditActor = auditActorById(userId),
  ): Promise<{ token: string; created: boolean }> {
    return this.dataSource.transaction(async (em) => {
      await lockWorkspace(em, workspaceId);
      const live = await this.tokens.findLiveService(em, workspaceId);
      if (live) {
        const token = live.usable && live.token_sealed ? this.box.open(live.token_sealed) : null;
        if (token !== null && sha256(token) === live.token_digest) return { token, created: false };
        await this.tokens.revoke(em, live.id, userId);
        await recordAudit(em, {
          event: 'api_token.revoked',
          actor,
          workspaceId,
          target: { type: 'api_token', id: live.id },
          metadata: { is_service: true, via: 'replaced' },
        });
      }
      const token = `${API_KEY_PREFIX}${randomHex(16)}`;
      const created = await this.tokens.insert(em, {
        label: randomHex(16),
        description: 'Service Token',
        tokenDigest: sha256(token),
        tokenSealed: this.box.seal(token),
        isService: true,
        userId,
        userType: 0,
        workspaceId,
        createdById: userId,
        updatedById: userId,
      });
      await recordAudit(em, {
        event: 'api_token.created',
        actor,
        workspaceId,
        target: { type: 'api_token', id: created },
        metadata: { is_service: true },
      });
      return { token, created: true };
    });
  }

  /** The caller's own non-service keys in the workspace, oldest first, without the secret. */
  async list(workspaceId: string, userId: string, page: PageRequest): Promise<Page<ApiTokenJson>> {
    return (await this.tokens.listOwnPage(workspaceId, userId, page)).map(apiTokenView);
  }

  /** Creates a key bound to `workspaceId`; the response is the only place the key appears. */
  async create(
    workspaceId: string,
    user: { id: string; isBot?: boolean },
    input: CreateApiTokenInput,
    actor: AuditActor = auditActorById(user.id),
  ): Promise<ApiTokenJson & { token: string }> {
    if (input.expired_at && input.expired_at.getTime() <= Date.now()) {
      throw validationError({ expired_at: ['The expiry must be in the future.'] });
    }
    const token = `${API_KEY_PREFIX}${randomHex(16)}`;
    const row: Partial<ApiToken> = {
      label: input.label?.trim() || randomHex(16),
      description: input.description ?? '',
      tokenDigest: sha256(token),
      expiredAt: input.expired_at ?? null,
      userId: user.id,
      userType: user.isBot ? 1 : 0,
      workspaceId,
      createdById: user.id,
      updatedById: user.id,
    };
    const fresh = await this.dataSource.transaction(async (em) => {
      const created = await this.tokens.create(em, row);
      await recordAudit(em, {
        event: 'api_token.created',
        actor,
        workspaceId,
        target: { type: 'api_token', id: created.id },
        metadata: { label: created.label, is_service: false, expires_at: created.expiredAt?.toISOString() ?? null },
      });
      return created;
    });
    return { ...apiTokenView(fresh), token };
  }

  /** One of the caller's own non-service keys in the workspace, without the secret; anything else is a 404. */
  async get(workspaceId: string, userId: string, id: string): Promise<ApiTokenJson> {
    return apiTokenView(await this.findOwn(workspaceId, userId, id));
  }

  /**
   * Updates the label, description, `is_active` or `expired_at` of one of the caller's keys. A
   * deactivated or expired key fails with 401 from the next request on; the response never shows
   * the secret (unlike Plane). An expiry in the past is a 422.
   */
  async update(
    workspaceId: string,
    userId: string,
    id: string,
    input: UpdateApiTokenInput,
    actor: AuditActor = auditActorById(userId),
  ): Promise<ApiTokenJson> {
    const token = await this.findOwn(workspaceId, userId, id);
    if (input.expired_at && input.expired_at.getTime() <= Date.now()) {
      throw validationError({ expired_at: ['The expiry must be in the future.'] });
    }
    const patch: Partial<ApiToken> = { updatedById: userId };
    if (input.label !== undefined) patch.label = input.label.trim() || token.label;
    if (input.description !== undefined) patch.description = input.description;
    if (input.is_active !== undefined) patch.isActive = input.is_active;
    if (input.expired_at !== undefined) patch.expiredAt = input.expired_at;
    await this.dataSource.transaction(async (em) => {
      await this.tokens.patch(em, token.id, patch);
      // a key switched off is revoked until switched on again
      if (token.isActive && input.is_active === false)
        await recordAudit(em, {
          event: 'api_token.revoked',
          actor,
          workspaceId,
          target: { type: 'api_token', id: token.id },
          metadata: { label: token.label, is_service: false, via: 'deactivated' },
        });
    });
    return apiTokenView(await this.findOwn(workspaceId, userId, id));
  }

  /** Soft-deletes one of the caller's keys; it fails with 401 from the next request on. */
  async remove(
    workspaceId: string,
    userId: string,
    id: string,
    actor: AuditActor = auditActorById(userId),
  ): Promise<void> {
    const token = await this.findOwn(workspaceId, userId, id);
    await this.dataSource.transaction(async (em) => {
      await this.tokens.revoke(em, token.id, userId);
      await recordAudit(em, {
        event: 'api_token.revoked',
        actor,
        workspaceId,
        target: { type: 'api_token', id: token.id },
        metadata: { label: token.label, is_service: false, via: 'deleted' },
      });
    });
  }

  private async findOwn(workspaceId: string, userId: string, id: string): Promise<ApiToken> {
    const token = await this.tokens.findOwn(workspaceId, userId, id);
    if (!token) throw new MeridianError('NOT_FOUND');
    return token;
  }

  /**
   * The principal behind an `X-API-Key`, or null when the key is unknown, deleted, inactive or
   * expired, or its user is deactivated or no longer an active member of the key's workspace.
   * `digest` is the key's SHA-256 in hex (`apiKeyDigest`), as stored in `token_digest`.
   */
  async verifyDigest(digest: string): Promise<Principal | null> {
    const row = await this.tokens.findUsableByDigest(digest);
    if (!row) return null;
    if (!row.last_used || Date.now() - new Date(row.last_used).getTime() > LAST_USED_RESOLUTION_MS) {
      // a plain statement, so that bookkeeping does not move updated_at
      await this.tokens.touchLastUsed(row.id);
    }
    return {
      userId: row.user_id,
      email: row.email,
      via: 'api-key',
      apiToken: { id: row.id, workspaceId: row.workspace_id },
      expiresAt: row.expired_at ? new Date(row.expired_at).getTime() : undefined,
    };
  }

  // ---- for the member room (a member removed or leaving, a workspace deleted)

  /**
   * Revokes `userId`'s live keys for the workspace for good (inactive, `deleted_at` = now: they answer
   * 401 even if the user rejoins), in the caller's transaction.
   */
  revokeForMember(workspaceId: string, userId: string, em: EntityManager): Promise<void> {
    return this.tokens.revokeForMember(em, workspaceId, userId);
  }

  /** Soft-deletes every live key of the workspace (`deleted_at` = `now`, inactive), in the caller's transaction. */
  deleteAllInWorkspace(workspaceId: string, now: Date, em: EntityManager): Promise<void> {
    return this.tokens.deleteAllInWorkspace(em, workspaceId, now);
  }
}
