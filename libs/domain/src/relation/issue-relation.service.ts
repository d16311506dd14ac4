import { MeridianError, validationError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ActivityEntry, IssueQueryService, writeActivities } from '../issue';
import type { Issue, IssueContext } from '../issue';
import { isUniqueViolation } from '../kernel/db-errors';
import { assertProjectWritable } from '../kernel/project-writable';
import { IssueRelation, RELATION_TYPES, RelationType, StoredRelationType } from './issue-relation.entity';
import { RelationRepository } from './relation.repository';
import { RelatedIssueJson, relatedIssueView, RelationsJson } from './relation.view';

/** One relation in `expandForList`: the work item at the other end and the stored type. */
export interface ExpandedRelationJson {
  id: string;
  project_id: string;
  sequence_id: number;
  relation_type: string;
  name: string;
  state_id: string | null;
  priority: string;
}

/** The work item at the other end of `relation`, with the type as stored (`ExpandedRelationJson`). */
function relatedRow(relation: IssueRelation, other: Issue): ExpandedRelationJson {
  return {
    id: other.id,
    project_id: other.projectId,
    sequence_id: other.sequenceId,
    relation_type: relation.relationType,
    name: other.name,
    state_id: other.stateId,
    priority: other.priority,
  };
}

/** How a type a client sends is stored: `reversed` puts the other work item in `issue_id`. */
const STORED: Record<RelationType, { type: StoredRelationType; reversed: boolean }> = {
  blocked_by: { type: 'blocked_by', reversed: false },
  blocking: { type: 'blocked_by', reversed: true },
  duplicate: { type: 'duplicate', reversed: false },
  relates_to: { type: 'relates_to', reversed: false },
  start_before: { type: 'start_before', reversed: false },
  start_after: { type: 'start_before', reversed: true },
  finish_before: { type: 'finish_before', reversed: false },
  finish_after: { type: 'finish_before', reversed: true },
};

/** The inverse of each type as seen from the other work item. */
export const INVERSE: Record<RelationType, RelationType> = {
  blocking: 'blocked_by',
  blocked_by: 'blocking',
  duplicate: 'duplicate',
  relates_to: 'relates_to',
  start_before: 'start_after',
  start_after: 'start_before',
  finish_before: 'finish_after',
  finish_after: 'finish_before',
};

/** The type a stored row means for `issueId` (one end of it). */
function typeFor(row: IssueRelation, issueId: string): RelationType {
  if (row.issueId === issueId) return row.relationType;
  return INVERSE[row.relationType];
}

/**
 * Relations between work items (Plane CE's `work-items/{id}/relations/`, as
 * `plane-node-sdk/dist/api/WorkItems/Relations.js` calls it). A pair of work items has at most one
 * relation; relating a pair again with another type replaces the old relation. The other work item
 * may be in any project of the workspace the caller is an active member of. Every change writes
 * history on both work items (`field` = the relation type seen from that work item,
 * `new_value`/`old_value` = the other one's `IDENT-seq`, `new_identifier`/`old_identifier` = its id),
 * in the same transaction.
 */
@Injectable()
export class IssueRelationService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly relations: RelationRepository,
    private readonly issues: IssueQueryService,
  ) {}

  /** The relations of a visible work item of the project, one id array per type; deleted or archived work items left out. */
  async list(projectId: string, issueId: string): Promise<RelationsJson> {
    await this.issue(this.dataSource.manager, projectId, issueId);
    return this.render(this.dataSource.manager, issueId);
  }

  /**
   * App API `issue-relation/` (Plane's `IssueRelationViewSet.list`): one array per relation type of
   * the related work items as objects (`id, name, project_id, sequence_id, relation_type, state_id,
   * priority, type_id, created_at, updated_at, created_by, updated_by`). Work items in projects the
   * caller is not an active member of are left out, so a relation never reveals them.
   */
  async listDetailed(
    userId: string,
    projectId: string,
    issueId: string,
  ): Promise<Record<RelationType, RelatedIssueJson[]>> {
    const byType = await this.list(projectId, issueId);
    const all = [...new Set(Object.values(byType).flat())];
    const rows = await this.issues.issuesInReach(userId, projectId, all);
    const found = new Map(rows.map((r) => [r.id, r]));
    const out = {} as Record<RelationType, RelatedIssueJson[]>;
    for (const type of RELATION_TYPES) {
      out[type] = byType[type].filter((id) => found.has(id)).map((id) => relatedIssueView(found.get(id)!, type));
    }
    return out;
  }

  /**
   * `expand=issue_relation,issue_related` of the App API's `issues-detail/` (Plane's
   * `IssueRelationSerializer`, `RelatedIssueSerializer`): per work item, the relations it holds
   * (`issue_relation`: the related work items) and those held on it (`issue_related`: the work items
   * holding them), each `{id, project_id, sequence_id, relation_type, name, state_id, priority}`
   * with the type as stored (`blocked_by`, `duplicate`, `relates_to`, `start_before`,
   * `finish_before`). Work items the caller cannot reach are left out.
   */
  async expandForList(
    userId: string,
    projectId: string,
    issueIds: string[],
  ): Promise<Map<string, { issue_relation: ExpandedRelationJson[]; issue_related: ExpandedRelationJson[] }>> {
    const out = new Map(
      issueIds.map((id) => [
        id,
        { issue_relation: [] as ExpandedRelationJson[], issue_related: [] as ExpandedRelationJson[] },
      ]),
    );
    for (const { relation, other, outgoing } of await this.relationsOf(userId, projectId, issueIds)) {
      const self = outgoing ? relation.issueId : relation.relatedIssueId;
      out.get(self)?.[outgoing ? 'issue_relation' : 'issue_related'].push(relatedRow(relation, other));
    }
    return out;
  }

  /**
   * App API `POST issue-relation/` (Plane 0.25.3 `IssueRelationViewSet.create`): relates as `create`
   * and answers a plain list, one row per work item in `issues` (in that order), each the work item
   * at the other end: `{id, project_id, sequence_id, relation_type, name, state_id, priority}`
   * (Plane's `IssueRelationSerializer`, or `RelatedIssueSerializer` for `blocking`/`start_after`/
   * `finish_after`). `relation_type` is the type as stored (`blocking` → `blocked_by`, `start_after`
   * → `start_before`, `finish_after` → `finish_before`), as Plane's serializers read it. Errors as
   * `create`.
   */
  async createListed(
    ctx: IssueContext,
    issueId: string,
    relationType: RelationType,
    issues: string[],
  ): Promise<ExpandedRelationJson[]> {
    await this.create(ctx, issueId, relationType, issues);
    const ids = [...new Set(issues.map((i) => i.toLowerCase()))];
    const found = new Map<string, ExpandedRelationJson>();
    for (const { relation, other } of await this.relationsOf(ctx.userId, ctx.projectId, [issueId])) {
      found.set(other.id, relatedRow(relation, other));
    }
    return ids.filter((id) => found.has(id)).map((id) => found.get(id)!);
  }

  /**
   * `{relation_type, issues[]}` → 201 with the work item's relations (as `list`). 422 when a listed
   * work item is unknown, not visible to the caller, or the work item itself.
   */
  async create(
    ctx: IssueContext,
    issueId: string,
    relationType: RelationType,
    issues: string[],
  ): Promise<RelationsJson> {
    const ids = [...new Set(issues.map((i) => i.toLowerCase()))];
    try {
      return await this.dataSource.transaction(async (em) => {
        await assertProjectWritable(em, ctx.projectId);
        const issue = await this.issue(em, ctx.projectId, issueId);
        if (ids.includes(issueId)) throw validationError({ issues: ['A work item cannot be related to itself.'] });
        const others = await this.reachable(em, ctx, ids);
        const missing = ids.filter((id) => !others.has(id));
        if (missing.length) throw validationError({ issues: [`Work items not found: ${missing.join(', ')}.`] });
        const keys = await this.keys(em, [issueId, ...ids]);
        const stored = STORED[relationType];
        const history: ActivityEntry[] = [];
        for (const otherId of ids) {
          const existing = await this.pair(em, issueId, otherId);
          if (existing && typeFor(existing, issueId) === relationType) continue;
          if (existing) {
            await this.relations.softDelete(em, existing.id, ctx.userId);
            history.push(...this.entries(issueId, otherId, typeFor(existing, issueId), keys, 'deleted'));
          }
          await this.relations.insert(em, {
            workspaceId: ctx.workspaceId,
            projectId: issue.projectId,
            issueId: stored.reversed ? otherId : issueId,
            relatedIssueId: stored.reversed ? issueId : otherId,
            relationType: stored.type,
            createdById: ctx.userId,
            updatedById: ctx.userId,
          });
          history.push(...this.entries(issueId, otherId, relationType, keys, 'updated'));
        }
        await this.write(em, ctx, history, others);
        return this.render(em, issueId);
      });
    } catch (err) {
      if (isUniqueViolation(err, 'uq_issue_relations_pair_live'))
        throw new MeridianError('CONFLICT', 'The work items were related concurrently; try again.');
      throw err;
    }
  }

  /** `{related_issue}` → 204; 404 `NOT_FOUND` when the two work items are not related. */
  async remove(ctx: IssueContext, issueId: string, relatedIssueId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, ctx.projectId);
      await this.issue(em, ctx.projectId, issueId);
      const existing = await this.pair(em, issueId, relatedIssueId.toLowerCase());
      if (!existing) throw new MeridianError('NOT_FOUND', 'The work items are not related.');
      const otherId = existing.issueId === issueId ? existing.relatedIssueId : existing.issueId;
      await this.relations.softDelete(em, existing.id, ctx.userId);
      const keys = await this.keys(em, [issueId, otherId]);
      const others = await this.projectsOf(em, [otherId]);
      await this.write(em, ctx, this.entries(issueId, otherId, typeFor(existing, issueId), keys, 'deleted'), others);
    });
  }

  // ---- helpers -------------------------------------------------------------------------------

  private entries(
    issueId: string,
    otherId: string,
    type: RelationType,
    keys: Map<string, string>,
    verb: 'updated' | 'deleted',
  ): ActivityEntry[] {
    const side = (me: string, them: string, t: RelationType): ActivityEntry =>
      verb === 'updated'
        ? {
            issueId: me,
            verb,
            field: t,
            newValue: keys.get(them) ?? them,
            newIdentifier: them,
            comment: `added ${t} relation`,
          }
        : {
            issueId: me,
            verb,
            field: t,
            oldValue: keys.get(them) ?? them,
            oldIdentifier: them,
            comment: `removed ${t} relation`,
          };
    return [side(issueId, otherId, type), side(otherId, issueId, INVERSE[type])];
  }

  /** History rows go to each work item's own project. */
  private async write(
    em: EntityManager,
    ctx: IssueContext,
    entries: ActivityEntry[],
    others: Map<string, { projectId: string }>,
  ): Promise<void> {
    for (const e of entries) {
      const projectId = others.get(e.issueId!)?.projectId ?? ctx.projectId;
      await writeActivities(em, { workspaceId: ctx.workspaceId, projectId, userId: ctx.userId }, [e]);
    }
  }

  /**
   * The live relations at either end of these work items whose other work item is live, not
   * archived, not a draft, and in a live, unarchived project that is `projectId` or one `userId` is
   * an active member of; oldest first, with the other work item.
   */
  private async relationsOf(
    userId: string,
    projectId: string,
    ids: string[],
  ): Promise<Array<{ relation: IssueRelation; other: Issue; outgoing: boolean }>> {
    if (!ids.length) return [];
    const rows = await this.relations.relationsOfAny(ids);
    const otherIds = [...new Set(rows.flatMap((r) => [r.issueId, r.relatedIssueId]))];
    const others = await this.issues.issuesInReach(userId, projectId, otherIds);
    const open = new Map(others.filter((i) => i.archivedAt === null && !i.isDraft).map((i) => [i.id, i]));
    const wanted = new Set(ids);
    const out: Array<{ relation: IssueRelation; other: Issue; outgoing: boolean }> = [];
    for (const relation of rows) {
      for (const outgoing of [true, false]) {
        const self = outgoing ? relation.issueId : relation.relatedIssueId;
        const other = open.get(outgoing ? relation.relatedIssueId : relation.issueId);
        if (wanted.has(self) && other) out.push({ relation, other, outgoing });
      }
    }
    return out;
  }

  /** The live relations of the work item whose both work items are live and not archived, oldest first. */
  private async liveRelations(em: EntityManager, issueId: string): Promise<IssueRelation[]> {
    const rows = await this.relations.relationsOfIssue(em, issueId);
    const ends = [...new Set(rows.flatMap((r) => [r.issueId, r.relatedIssueId]))];
    const live = new Set(await this.issues.liveUnarchivedIds(ends, em));
    return rows.filter((r) => live.has(r.issueId) && live.has(r.relatedIssueId));
  }

  private async render(em: EntityManager, issueId: string): Promise<RelationsJson> {
    const rows = await this.liveRelations(em, issueId);
    const out = Object.fromEntries(RELATION_TYPES.map((t) => [t, [] as string[]])) as unknown as RelationsJson;
    for (const row of rows) out[typeFor(row, issueId)].push(row.issueId === issueId ? row.relatedIssueId : row.issueId);
    return out;
  }

  private async pair(em: EntityManager, a: string, b: string): Promise<IssueRelation | null> {
    return this.relations.findPair(em, a, b);
  }

  /** Live work items of the workspace in projects where the caller is an active member. */
  private async reachable(
    em: EntityManager,
    ctx: IssueContext,
    ids: string[],
  ): Promise<Map<string, { projectId: string }>> {
    const rows = await this.issues.openIssuesOfMember(ctx.workspaceId, ctx.userId, ids, em);
    return new Map(rows.map((r) => [r.id, { projectId: r.projectId }]));
  }

  private async projectsOf(em: EntityManager, ids: string[]): Promise<Map<string, { projectId: string }>> {
    const rows = await this.issues.issueKeys(ids, em);
    return new Map(rows.map((r) => [r.id, { projectId: r.projectId }]));
  }

  private async keys(em: EntityManager, ids: string[]): Promise<Map<string, string>> {
    const rows = await this.issues.issueKeys(ids, em);
    return new Map(rows.map((r) => [r.id, `${r.identifier}-${r.seq}`]));
  }

  private async issue(em: EntityManager, projectId: string, issueId: string): Promise<Issue> {
    const issue = await this.issues.openIssue(projectId, issueId, em);
    if (!issue) throw new MeridianError('NOT_FOUND');
    return issue;
  }

  // ---- the import's dedupe reads (`meridian import plane`)

  /**
   * The work item pairs `{issueId, relatedIssueId}` of the project's live relations (any type), in
   * no order: Plane holds one relation per pair, which an import keeps. `em`: the caller's transaction.
   */
  pairsOfProject(projectId: string, em?: EntityManager): Promise<Array<{ issueId: string; relatedIssueId: string }>> {
    return this.relations.pairsOfProject(projectId, em);
  }
}
