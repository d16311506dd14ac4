import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/**
 * Where a browser lands after signing in when the form names no `next_path` (Plane
 * `plane/authentication/utils/redirection_path.py`): `onboarding` until the profile is onboarded,
 * then the last workspace the user worked in if still a member, else the oldest of their
 * workspaces, else `create-workspace`.
 */
@Injectable()
export class LandingRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async landingPath(userId: string): Promise<string> {
    const [row] = (await this.dataSource.query(
      `SELECT p.is_onboarded,
              (SELECT w.slug FROM workspaces w
                 JOIN workspace_members m ON m.workspace_id = w.id AND m.member_id = $1 AND m.is_active AND m.deleted_at IS NULL
                WHERE w.id = p.last_workspace_id AND w.deleted_at IS NULL) AS last_slug,
              (SELECT w.slug FROM workspaces w
                 JOIN workspace_members m ON m.workspace_id = w.id AND m.member_id = $1 AND m.is_active AND m.deleted_at IS NULL
                WHERE w.deleted_at IS NULL ORDER BY w.created_at LIMIT 1) AS first_slug
         FROM (SELECT $1::uuid AS user_id) u LEFT JOIN profiles p ON p.user_id = u.user_id`,
      [userId],
    )) as Array<{ is_onboarded: boolean | null; last_slug: string | null; first_slug: string | null }>;
    if (!row?.is_onboarded) return 'onboarding';
    return row.last_slug ?? row.first_slug ?? 'create-workspace';
  }
}
