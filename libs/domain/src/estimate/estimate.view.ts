import { iso } from '../kernel/time';
import { Estimate } from './estimate.entity';
import { EstimatePoint } from './estimate-point.entity';

/** Plane CE's estimate JSON (the SDK's `Estimate`). */
export function estimateView(e: Estimate) {
  return {
    id: e.id,
    name: e.name,
    description: e.description,
    type: e.type,
    last_used: e.lastUsed,
    external_source: e.externalSource,
    external_id: e.externalId,
    project: e.projectId,
    workspace: e.workspaceId,
    created_at: iso(e.createdAt),
    updated_at: iso(e.updatedAt),
    created_by: e.createdById,
    updated_by: e.updatedById,
  };
}
export type EstimateJson = ReturnType<typeof estimateView>;

/** Plane CE's estimate point JSON (the SDK's `EstimatePoint`). */
export function estimatePointView(p: EstimatePoint) {
  return {
    id: p.id,
    estimate: p.estimateId,
    key: p.key,
    value: p.value,
    description: p.description,
    external_source: p.externalSource,
    external_id: p.externalId,
    project: p.projectId,
    workspace: p.workspaceId,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
    created_by: p.createdById,
    updated_by: p.updatedById,
  };
}
export type EstimatePointJson = ReturnType<typeof estimatePointView>;
