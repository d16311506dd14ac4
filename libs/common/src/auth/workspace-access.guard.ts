import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { MeridianError } from '../errors/meridian.error';
import { AccessCache } from './access-cache';
import { WORKSPACE_ROLE } from './auth.decorators';
import { routeSetting } from './route-settings';
import { Principal, WORKSPACE_ACCESS_RESOLVER, WorkspaceAccess, WorkspaceAccessResolver } from './principal';
import { httpRequestOf } from '../http/http-context';

/**
 * Scopes every route with a `:slug` to the caller's workspace (runs after authentication).
 *
 * - Session callers: an unknown slug or a workspace they are not an active member of is a 404
 *   `WORKSPACE_NOT_FOUND` (never a leak that it exists).
 * - API keys: a key works only in the workspace it was created in; any other slug is a 403
 *   `API_KEY_WORKSPACE_MISMATCH`.
 * - `@WorkspaceRole(n)`: a member below role n gets a 403 `PERMISSION_DENIED`.
 *
 * The resolved access (through `AccessCache`) is stored as `req.workspaceAccess` (see `@CurrentWorkspace()`).
 */
@Injectable()
export class WorkspaceAccessGuard implements CanActivate {
  constructor(
    @Inject(WORKSPACE_ACCESS_RESOLVER) private readonly resolver: WorkspaceAccessResolver,
    private readonly cache: AccessCache,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = httpRequestOf<Request & { workspaceAccess?: WorkspaceAccess }>(context);
    const slug = req.params?.slug;
    const principal = req.user as Principal | undefined;
    if (typeof slug !== 'string' || !principal) return true;

    const minimum = routeSetting<number>(context, WORKSPACE_ROLE);
    const { workspaceId, role } = await this.cache.get(`w:${principal.userId}:${slug}`, () =>
      this.resolver.resolve(slug, principal.userId),
    );
    if (principal.via === 'api-key') {
      if (!workspaceId || workspaceId !== principal.apiToken?.workspaceId) {
        throw new MeridianError('API_KEY_WORKSPACE_MISMATCH');
      }
      if (role === null) throw new MeridianError('INVALID_API_KEY');
    } else if (!workspaceId || role === null) {
      throw new MeridianError('WORKSPACE_NOT_FOUND');
    }
    if (minimum !== undefined && role < minimum) throw new MeridianError('PERMISSION_DENIED');
    req.workspaceAccess = { workspaceId, slug, role };
    return true;
  }
}
