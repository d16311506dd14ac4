import { iso } from '../kernel/time';
import { Workspace } from './workspace.entity';

/** Plane's WorkSpaceSerializer (`plane/app/serializers/workspace.py`). */
export function workspaceView(workspace: Workspace, extra: { role?: number; total_members?: number } = {}) {
  return {
    id: workspace.id,
    name: workspace.name,
    slug: workspace.slug,
    logo: workspace.logo,
    logo_url: workspace.logo,
    owner: workspace.ownerId,
    organization_size: workspace.organizationSize,
    timezone: workspace.timezone,
    created_at: iso(workspace.createdAt),
    updated_at: iso(workspace.updatedAt),
    deleted_at: iso(workspace.deletedAt),
    created_by: workspace.createdById,
    updated_by: workspace.updatedById,
    ...extra,
  };
}
