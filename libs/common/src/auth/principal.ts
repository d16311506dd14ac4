/** How the caller proved who it is. */
export type CredentialKind = 'session' | 'api-key' | 'instance-admin';

/**
 * The authenticated caller, attached to the request as `req.user` by the authentication guard.
 * `sessionId` is set for session (Bearer) credentials and instance admin tokens (then the id of
 * the instance admin session), `apiToken` for API keys.
 */
export interface Principal {
  userId: string;
  email: string;
  via: CredentialKind;
  sessionId?: string;
  apiToken?: { id: string; workspaceId: string };
  /** when the presented credential expires (epoch ms); undefined for API keys without an expiry */
  expiresAt?: number;
}

/**
 * Turns presented credentials into a principal. Implemented by the domain (token digests live
 * there) and bound to `CREDENTIAL_VERIFIER` by the server, so `libs/common` stays domain-free.
 * Both methods return `null` for unknown, expired, revoked or deactivated credentials.
 */
export interface CredentialVerifier {
  verifyAccessToken(token: string): Promise<Principal | null>;
  /** the web session cookie's value (Plane's `session-id`), a different kind of token than Bearer's */
  verifyWebSessionToken(token: string): Promise<Principal | null>;
  /** by the SHA-256 (hex) of the presented key (`apiKeyDigest`: computed once per request) */
  verifyApiKeyDigest(digest: string): Promise<Principal | null>;
}
export const CREDENTIAL_VERIFIER = Symbol('CREDENTIAL_VERIFIER');

/** The caller's standing in the workspace named by the route's `:slug`. */
export interface WorkspaceAccess {
  workspaceId: string;
  slug: string;
  /** 20 Admin, 15 Member, 5 Guest */
  role: number;
}

/**
 * Resolves a workspace slug and the caller's active membership in it. Implemented by the domain.
 * `workspaceId` is null when no live workspace has the slug; `role` is null for non-members.
 */
export interface WorkspaceAccessResolver {
  resolve(slug: string, userId: string): Promise<{ workspaceId: string | null; role: number | null }>;
}
export const WORKSPACE_ACCESS_RESOLVER = Symbol('WORKSPACE_ACCESS_RESOLVER');

/** The caller's standing in the project named by the route's `:project_id`. */
export interface ProjectAccess {
  projectId: string;
  /** the caller's active project role (20, 15, 5), or null for a non-member of a public project */
  role: number | null;
}

/**
 * Resolves a project inside a workspace and the caller's active membership. Implemented by the
 * domain. `visible` is false when the project does not exist in the workspace, is deleted, or is
 * secret (network 0) and the caller is not a member. `exists` tells a live project of the workspace
 * from none at all (used by `@ProjectRole(…, { orWorkspaceRole })`).
 */
export interface ProjectAccessResolver {
  resolve(
    workspaceId: string,
    projectId: string,
    userId: string,
  ): Promise<{ visible: boolean; role: number | null; exists?: boolean }>;
}
export const PROJECT_ACCESS_RESOLVER = Symbol('PROJECT_ACCESS_RESOLVER');

/**
 * Turns an instance admin Bearer token (`/api/instances/` only) into a principal with
 * `via: 'instance-admin'`. Implemented by the domain; null for unknown, expired or revoked
 * tokens, deactivated users, and users who are no longer instance admins.
 */
export interface InstanceAdminVerifier {
  verifyInstanceAdminToken(token: string): Promise<Principal | null>;
}
export const INSTANCE_ADMIN_VERIFIER = Symbol('INSTANCE_ADMIN_VERIFIER');
