import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import { MeridianError } from '../errors/meridian.error';
import type { CredentialKind, Principal, ProjectAccess, WorkspaceAccess } from './principal';
import { httpRequestOf } from '../http/http-context';

export const AUTH_SCHEME = 'meridian:auth-scheme';
export const WORKSPACE_ROLE = 'meridian:workspace-role';
export const PROJECT_ROLE = 'meridian:project-role';
export const PROJECT_ROLE_WORKSPACE_OVERRIDE = 'meridian:project-role-workspace-override';

/**
 * Route or controller needs no credentials (health, sign-in, public boards). A handler's own
 * declaration wins over its controller's: on a `@Public()` controller, `@BearerAuth()` on a handler
 * makes that one route require a signed-in user (the Public API's comment, reaction and vote writes).
 */
export const Public = () => SetMetadata(AUTH_SCHEME, 'public');
/** Controller authenticates with `Authorization: Bearer <access token>` (App API, docs/reference/http-interface.md §5). */
export const BearerAuth = () => SetMetadata(AUTH_SCHEME, 'session' satisfies CredentialKind);
/** Controller authenticates with `X-API-Key` (External API v1, docs/reference/http-interface.md §5). */
export const ApiKeyAuth = () => SetMetadata(AUTH_SCHEME, 'api-key' satisfies CredentialKind);

/**
 * Controller authenticates with `Authorization: Bearer <instance admin access token>`: tokens
 * issued by `/api/instances/admins/sign-in/` (or the first set-up), valid only on `/api/instances/`
 * routes. User access tokens are refused here, and admin tokens everywhere else.
 */
export const InstanceAdminAuth = () => SetMetadata(AUTH_SCHEME, 'instance-admin' satisfies CredentialKind);

export type AuthScheme = CredentialKind | 'public';

/** Role values shared by workspaces and projects (Plane: Admin 20, Member 15, Guest 5). */
export const ROLE = { ADMIN: 20, MEMBER: 15, GUEST: 5 } as const;
export type Role = (typeof ROLE)[keyof typeof ROLE];

/**
 * The least workspace role the route needs; the workspace is the route's `:slug`.
 * Without it, any active member passes. A caller below the role gets 403.
 */
export const WorkspaceRole = (minimum: Role) => SetMetadata(WORKSPACE_ROLE, minimum);

/**
 * What a route with `:project_id` needs of the caller's project membership:
 * - a role (20, 15, 5): at least that project role, for every method;
 * - `'visible'`: any workspace member who may see the project (a member, or the project is public).
 * Without it, Plane's ProjectEntity rule applies: reads need an active project membership,
 * writes at least Member (15).
 */
export const ProjectRole = (minimum: Role | 'visible', options: ProjectRoleOptions = {}) =>
  options.orWorkspaceRole === undefined
    ? SetMetadata(PROJECT_ROLE, minimum)
    : applyDecorators(
        SetMetadata(PROJECT_ROLE, minimum),
        SetMetadata(PROJECT_ROLE_WORKSPACE_OVERRIDE, options.orWorkspaceRole),
      );

export interface ProjectRoleOptions {
  /**
   * A workspace role that passes too, whatever the caller's project membership, and even for a
   * secret project they are not a member of (Plane: a workspace Admin may delete any project).
   */
  orWorkspaceRole?: Role;
}

/** The authenticated caller. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const user = httpRequestOf<Request>(ctx).user as Principal | undefined;
  if (!user) throw new MeridianError('AUTHENTICATION_REQUIRED');
  return user;
});

/** The workspace of the route's `:slug`, as resolved and authorised by `WorkspaceAccessGuard`. */
export const CurrentWorkspace = createParamDecorator((_: unknown, ctx: ExecutionContext): WorkspaceAccess => {
  const access = httpRequestOf<Request & { workspaceAccess?: WorkspaceAccess }>(ctx).workspaceAccess;
  if (!access) throw new Error('CurrentWorkspace used on a route without :slug');
  return access;
});

/** The project of the route's `:project_id`, as resolved and authorised by `ProjectAccessGuard`. */
export const CurrentProject = createParamDecorator((_: unknown, ctx: ExecutionContext): ProjectAccess => {
  const access = httpRequestOf<Request & { projectAccess?: ProjectAccess }>(ctx).projectAccess;
  if (!access) throw new Error('CurrentProject used on a route without :project_id');
  return access;
});
