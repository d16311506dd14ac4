import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { MeridianError } from '../errors/meridian.error';
import { isUuid } from '../http/uuid.pipe';
import { AccessCache } from './access-cache';
import { PROJECT_ROLE, PROJECT_ROLE_WORKSPACE_OVERRIDE, ROLE } from './auth.decorators';
import { routeSetting } from './route-settings';
import { Principal, PROJECT_ACCESS_RESOLVER, ProjectAccess, ProjectAccessResolver, WorkspaceAccess } from './principal';
import { httpRequestOf } from '../http/http-context';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Scopes every route with a `:project_id` to a project of the route's workspace (runs after
 * `WorkspaceAccessGuard`). A project that does not exist there, is deleted, or is secret and the
 * caller not a member is a 404 `PROJECT_NOT_FOUND`; a visible project the caller lacks the role
 * for is a 403 `PERMISSION_DENIED` (see `@ProjectRole`). The resolved access (through
 * `AccessCache`) is stored as
 * `req.projectAccess` (see `@CurrentProject()`).
 */
@Injectable()
export class ProjectAccessGuard implements CanActivate {
  constructor(
    @Inject(PROJECT_ACCESS_RESOLVER) private readonly resolver: ProjectAccessResolver,
    private readonly cache: AccessCache,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = httpRequestOf<Request & { workspaceAccess?: WorkspaceAccess; projectAccess?: ProjectAccess }>(context);
    const projectId = req.params?.project_id;
    const principal = req.user as Principal | undefined;
    if (typeof projectId !== 'string' || !principal || !req.workspaceAccess) return true;
    if (!isUuid(projectId)) throw new MeridianError('PROJECT_NOT_FOUND');

    const { workspaceId } = req.workspaceAccess;
    const id = projectId.toLowerCase();
    const { visible, role, exists } = await this.cache.get(`p:${workspaceId}:${id}:${principal.userId}`, () =>
      this.resolver.resolve(workspaceId, id, principal.userId),
    );
    const override = routeSetting<number>(context, PROJECT_ROLE_WORKSPACE_OVERRIDE);
    if (override !== undefined && req.workspaceAccess.role >= override && (visible || exists)) {
      req.projectAccess = { projectId: id, role };
      return true;
    }
    if (!visible) throw new MeridianError('PROJECT_NOT_FOUND');
    const rule = routeSetting<number | 'visible'>(context, PROJECT_ROLE);
    const needed = rule === 'visible' ? null : (rule ?? (SAFE_METHODS.has(req.method) ? ROLE.GUEST : ROLE.MEMBER));
    if (needed !== null && (role === null || role < needed)) throw new MeridianError('PERMISSION_DENIED');
    req.projectAccess = { projectId: id, role };
    return true;
  }
}
