import type { ChangeEvents } from '../kernel/change-bus';
import { Cycle, cycleView } from '../cycle';
import { Module, moduleView } from '../module';
import { Project, projectView } from '../project';
import { PendingWebhookEvent } from './webhook-events';

/**
 * The webhook event of a project, cycle or module change (Plane's `model_activity`): `created` and
 * `deleted` carry the object's id (`data` is rendered at commit, `{id}` for a deletion); `updated`
 * carries the object as it was before the change (`before`), compared at commit with the object
 * then to list the changed fields.
 */
export function modelEvent(change: ChangeEvents['model.changed']): PendingWebhookEvent {
  const { kind, action, row, actorId } = change;
  const event: PendingWebhookEvent = { workspaceId: row.workspaceId, event: kind, action, entityId: row.id, actorId };
  if (action === 'updated') event.before = plainView(kind, row);
  return event;
}

/** Plain views without counts, compared before and after an update to list the changed fields. */
function plainView(kind: ChangeEvents['model.changed']['kind'], row: unknown): Record<string, unknown> {
  switch (kind) {
    case 'project':
      return projectView(row as Project, {
        total_members: 0,
        total_cycles: 0,
        total_modules: 0,
        is_member: false,
        member_role: null,
        is_deployed: false,
      });
    case 'cycle':
      return cycleView(row as Cycle);
    case 'module':
      return moduleView(row as Module, []);
  }
}
