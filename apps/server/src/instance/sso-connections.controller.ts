import { AuditActor, CurrentActor, InstanceAdminAuth, MeridianError, UuidPipe } from '#common';
import { SsoConnectionInput, SsoConnectionJson, SsoConnectionService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';

function bodyOf(body: unknown): SsoConnectionInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new MeridianError('MALFORMED_REQUEST');
  return body as SsoConnectionInput;
}

/**
 * The instance's enterprise sign-in connections (`/api/instances/sso-connections/`, admin tokens
 * only; docs/sso-oidc.md). A connection: `{id, kind: "oidc", name, is_enabled, domains,
 * allow_password, jit_provisioning, settings: {issuer, client_id, scopes, groups_claim,
 * client_secret_set}, group_role_mappings: [{group, workspace_slug, role}], redirect_uri, source,
 * created_at, updated_at}`. The client secret is write-only (`settings.client_secret`), stored
 * encrypted and never answered. Every save reads the provider's discovery document first. An LDAP
 * connection (`kind: "ldap"`, docs/sso-ldap.md) has `settings: {url, start_tls, allow_plaintext,
 * ca_certificate, bind_dn, base_dn, user_filter, …, bind_password_set}` (`bind_password` write-only);
 * every save binds as its service account first (422 `LDAP_CHECK_FAILED`). Each create, update
 * (that changes something) and delete writes an `instance.sso_connection_created|updated|deleted`
 * audit row in its transaction (docs/audit.md): id, kind, name, changed field names, no secret.
 */
@Controller('sso-connections')
@InstanceAdminAuth()
export class SsoConnectionsController {
  constructor(private readonly connections: SsoConnectionService) {}

  /**
   * 200: every connection (those of the `OIDC_*`, `SAML_*` and `LDAP_*` variables first, read-only,
   * `source: "environment"`), a bare array.
   */
  @Get()
  list(): Promise<SsoConnectionJson[]> {
    return this.connections.list();
  }

  /**
   * 201 with the connection. 422 `VALIDATION_ERROR` (`errors` by field), 409 `SSO_DOMAIN_TAKEN`,
   * 422 `SSO_DISCOVERY_FAILED` (the provider's discovery failed, the cause in `detail`); nothing saved then.
   */
  @Post()
  create(@CurrentActor() actor: AuditActor, @Body() body: unknown): Promise<SsoConnectionJson> {
    return this.connections.create(bodyOf(body), actor);
  }

  /** 200; 404 `NOT_FOUND`. */
  @Get(':id')
  get(@Param('id', UuidPipe) id: string): Promise<SsoConnectionJson> {
    return this.connections.get(id);
  }

  /** 200 with the connection; the given fields only. As create, and 404, 409 `SSO_CONNECTION_READ_ONLY`. */
  @Patch(':id')
  update(
    @CurrentActor() actor: AuditActor,
    @Param('id', UuidPipe) id: string,
    @Body() body: unknown,
  ): Promise<SsoConnectionJson> {
    return this.connections.update(id, bodyOf(body), actor);
  }

  /** 204; 404 `NOT_FOUND`; 409 `SSO_CONNECTION_READ_ONLY`. */
  @Delete(':id')
  @HttpCode(204)
  async remove(@CurrentActor() actor: AuditActor, @Param('id', UuidPipe) id: string): Promise<void> {
    await this.connections.remove(id, actor);
  }
}
