import type { Issue } from '../issue';
import { iso } from '../kernel/time';
import { RelationType } from './issue-relation.entity';

/**
 * `GET …/relations/`: one array of work item ids per relation type
 * (`plane-node-sdk/dist/models/WorkItemRelation.d.ts` WorkItemRelationResponse).
 */
export type RelationsJson = Record<RelationType, string[]>;

/** A related work item in the App API's `issue-relation/` answer. */
export interface RelatedIssueJson {
  id: string;
  name: string;
  project_id: string;
  sequence_id: number;
  relation_type: RelationType;
  state_id: string | null;
  priority: string;
  type_id: string | null;
  created_at: string | null;
  updated_at: string | null;
  created_by: string | null;
  updated_by: string | null;
}

/** A related work item as the App API's `issue-relation/` lists it (Plane's `IssueRelationViewSet.list`). */
export function relatedIssueView(i: Issue, type: RelationType): RelatedIssueJson {
  return {
    id: i.id,
    name: i.name,
    project_id: i.projectId,
    sequence_id: i.sequenceId,
    relation_type: type,
    state_id: i.stateId,
    priority: i.priority,
    type_id: i.typeId,
    created_at: iso(i.createdAt),
    updated_at: iso(i.updatedAt),
    created_by: i.createdById,
    updated_by: i.updatedById,
  };
}
