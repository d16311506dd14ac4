import { EntityManager } from 'typeorm';
import { Cycle } from '../cycle/cycle.entity';
import { cycleView } from '../cycle/cycle.view';
import { Module } from '../module/module.entity';
import { moduleView } from '../module/module.view';
import { Project } from '../project/project.entity';
import { projectView } from '../project/project.view';
import { enqueueWebhookEvent } from './webhook-events';

/**
 * One-line hooks for the services of projects, cycles and modules (Plane's `model_activity`):
 * call them inside the change's transaction. They only queue; the outbox renders and writes the
 * deliveries at commit, and only for workspaces with a subscribed webhook.
 */
type Model = { kind: 'project'; row: Project } | { kind: 'cycle'; row: Cycle } | { kind: 'module'; row: Module };

/** Plain views without counts, compared before and after an update to list the changed fields. */
function plainView(m: Model): Record<string, unknown> {
  switch (m.kind) {
    case 'project':
      return projectView(m.row, { total_members: 0, total_cycles: 0, total_modules: 0, is_member: false, member_role: null, is_deployed: false });
    case 'cycle':
      return cycleView(m.row);
    case 'module':
      return moduleView(m.row, []);
  }
}

/** `created`, with the object's representation as of the commit. */
export function webhookModelCreated(em: EntityManager, kind: Model['kind'], row: { id: string; workspaceId: string }, actorId: string): Promise<void> {
  return enqueueWebhookEvent(em, { workspaceId: row.workspaceId, event: kind, action: 'created', entityId: row.id, actorId });
}

/**
 * `updated`, one event per field that differs between `row` (as loaded before the change; call
 * this before modifying it) and the object at commit.
 */
export function webhookModelUpdated(em: EntityManager, model: Model, actorId: string): Promise<void> {
  return enqueueWebhookEvent(em, {
    workspaceId: model.row.workspaceId, event: model.kind, action: 'updated', entityId: model.row.id, actorId, before: plainView(model),
  });
}

/** `deleted`, with `data: {id}`. */
export function webhookModelDeleted(em: EntityManager, kind: Model['kind'], row: { id: string; workspaceId: string }, actorId: string): Promise<void> {
  return enqueueWebhookEvent(em, { workspaceId: row.workspaceId, event: kind, action: 'deleted', entityId: row.id, actorId });
}
