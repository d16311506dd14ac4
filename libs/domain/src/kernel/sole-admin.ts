import type { EntityManager } from 'typeorm';

/**
 * Whether `userId` is the only active Admin (20) of a workspace or project that has other active
 * members, in `em`'s transaction: Plane's `UserEndpoint.deactivate` refuses such a user (the caller
 * answers 400). One statement over the membership table given: `workspace_members` by
 * `workspace_id`, or `project_members` by `project_id`.
 */
export async function isSoleAdminOfAny(
  em: EntityManager,
  memberships: 'workspace_members' | 'project_members',
  userId: string,
): Promise<boolean> {
  const scope = memberships === 'workspace_members' ? 'workspace_id' : 'project_id';
  const rows = await em.query<unknown[]>(
    `SELECT 1 FROM ${memberships} me
      WHERE me.member_id = $1 AND me.is_active = true AND me.deleted_at IS NULL AND me.role = 20
        AND NOT EXISTS (SELECT 1 FROM ${memberships} o WHERE o.${scope} = me.${scope} AND o.member_id <> $1
          AND o.is_active = true AND o.deleted_at IS NULL AND o.role = 20)
        AND EXISTS (SELECT 1 FROM ${memberships} o WHERE o.${scope} = me.${scope} AND o.member_id <> $1
          AND o.is_active = true AND o.deleted_at IS NULL)
      LIMIT 1`,
    [userId],
  );
  return rows.length > 0;
}
