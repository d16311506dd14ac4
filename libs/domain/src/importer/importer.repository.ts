import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** The kinds of object an import records its origin on (`external_source` + `external_id`). */
export type ExternalKind = 'project' | 'state' | 'label' | 'issue' | 'comment' | 'cycle' | 'module' | 'intake';

/** Entity name of each kind (other rooms' tables, read by entity name). */
const ENTITY: Record<ExternalKind, string> = {
  project: 'Project',
  state: 'State',
  label: 'Label',
  issue: 'Issue',
  comment: 'IssueComment',
  cycle: 'Cycle',
  module: 'Module',
  intake: 'IntakeIssue',
};

/**
 * The importer's reads: what a target workspace already holds from a source (by `external_source`
 * and `external_id`, live rows only) and the natural keys of links, relations and planning
 * memberships, over the owning rooms' tables by entity name (no import). The workspace, people and
 * memberships come through the workspace, user and project doors; every write goes through the
 * owning feature's service.
 */
@Injectable()
export class ImporterRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * `external_id` → id of the live objects of one kind that came from `source`: inside the
   * workspace for projects, inside the project for the rest.
   */
  async externalIds(kind: ExternalKind, scopeId: string, source: string): Promise<Map<string, string>> {
    const scope = kind === 'project' ? 'workspace_id' : 'project_id';
    const rows = await this.dataSource
      .createQueryBuilder()
      .select(['e.id AS id', 'e.external_id AS external_id'])
      .from(ENTITY[kind], 'e')
      .where(`e.${scope} = :scopeId AND e.external_source = :source AND e.external_id IS NOT NULL`, {
        scopeId,
        source,
      })
      .andWhere('e.deleted_at IS NULL')
      .getRawMany<{ id: string; external_id: string }>();
    return new Map(rows.map((r) => [r.external_id, r.id]));
  }

  /** Live states or labels of a project by name (the project's own defaults, adopted by an import). */
  async namesOf(
    kind: 'state' | 'label',
    projectId: string,
  ): Promise<Map<string, { id: string; externalId: string | null }>> {
    const rows = await this.dataSource
      .createQueryBuilder()
      .select(['e.id AS id', 'e.name AS name', 'e.external_id AS external_id'])
      .from(ENTITY[kind], 'e')
      .where('e.project_id = :projectId AND e.deleted_at IS NULL', { projectId })
      .getRawMany<{ id: string; name: string; external_id: string | null }>();
    return new Map(rows.map((r) => [r.name, { id: r.id, externalId: r.external_id }]));
  }

  /** `issue_id + "\n" + url` of the project's live links. */
  async linkKeys(projectId: string): Promise<Set<string>> {
    const rows = await this.dataSource
      .createQueryBuilder()
      .select(['l.issue_id AS issue_id', 'l.url AS url'])
      .from('IssueLink', 'l')
      .where('l.project_id = :projectId AND l.deleted_at IS NULL', { projectId })
      .getRawMany<{ issue_id: string; url: string }>();
    return new Set(rows.map((r) => `${r.issue_id}\n${r.url}`));
  }

  /** Work item ids in a cycle or a module (live links). */
  async planningIssueIds(kind: 'cycle' | 'module', id: string): Promise<Set<string>> {
    const rows = await this.dataSource
      .createQueryBuilder()
      .select('x.issue_id AS issue_id')
      .from(kind === 'cycle' ? 'CycleIssue' : 'ModuleIssue', 'x')
      .where(`x.${kind}_id = :id AND x.deleted_at IS NULL`, { id })
      .getRawMany<{ issue_id: string }>();
    return new Set(rows.map((r) => r.issue_id));
  }

  /** The related pairs of the project's live relations (a pair holds one relation), as `smaller id + "\n" + larger id`. */
  async relatedPairs(projectId: string): Promise<Set<string>> {
    const rows = await this.dataSource
      .createQueryBuilder()
      .select(['r.issue_id AS issue_id', 'r.related_issue_id AS related_issue_id'])
      .from('IssueRelation', 'r')
      .where('r.project_id = :projectId AND r.deleted_at IS NULL', { projectId })
      .getRawMany<{ issue_id: string; related_issue_id: string }>();
    return new Set(rows.map((r) => relatedPair(r.issue_id, r.related_issue_id)));
  }
}

/** The key of an unordered pair of work items. */
export function relatedPair(a: string, b: string): string {
  return a < b ? `${a}\n${b}` : `${b}\n${a}`;
}
