import {
  AnswerLender,
  answerBudget,
  Page,
  PageRequest,
  pageInChunks,
  paginate,
  MemoryPageBookmarks,
  numberedPageSql,
  PAGE_BOOKMARKS,
  PageBookmarks,
  paginateSql,
  PLANNED_EACH_TIME,
  readInChunks,
  SqlKeysetList,
} from '#common';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull, Not, SelectQueryBuilder } from 'typeorm';
import { externalIdMap } from '../kernel/external-id';
import {
  hotQuery,
  hotRead,
  hotTransaction,
  hotTxPipeline,
  hotTxQuery,
  ISO_TIMES,
  ISO_TIMES_UUID_ARRAYS,
  ReadBatch,
  TypeParsers,
  UUID_ARRAYS,
  uuidArrayLiteral,
} from '../kernel/hot-query';
import { IssueActivity } from './issue-activity.entity';
import { IssueComment } from './issue-comment.entity';
import { NAME_STATS_TTL_MS, NameStats, walksNewest } from './issue-search-estimate';
import {
  Bind,
  bindNamed,
  bindPositional,
  groupCondition,
  GroupKey,
  guestCondition,
  IssueFilterSet,
  issueFilterConditions,
  IssueGroupBy,
  IssueOrderKey,
  inLabelProject,
  talliedFilters,
} from './issue-filters';
import { IssueLink } from './issue-link.entity';
import { IssueAssignee } from './issue-assignee.entity';
import { IssueLabel } from './issue-label.entity';
import { IssueDescriptionVersion } from './issue-description-version.entity';
import { IssueReaction } from './issue-reaction.entity';
import { IssueVote } from './issue-vote.entity';
import { CommentReaction } from './comment-reaction.entity';
import { Issue } from './issue.entity';
import { tallyFilterOf, tallyKindOf, tallyProjects } from './issue-tallies';
import {
  ISSUE_COLUMNS,
  INTAKE_PENDING,
  INTAKE_SNOOZED,
  ISSUE_LIST_COLUMNS,
  LIVE_PROJECT,
  OPEN_ISSUE,
  APP_VALUE_COLUMNS,
  SQL_APP_VALUES,
  SQL_CREATE_ISSUE,
  SQL_CREATE_ISSUE_IN_BATCH,
  SQL_CREATE_ISSUE_IN_BATCH_NO_STATE,
  SQL_CREATE_ISSUE_NO_STATE,
  SQL_DEFAULT_STATE,
  SQL_ISSUE_SETS,
  SQL_LOCK_TALLIES,
  SQL_NEXT_SEQUENCE,
  SQL_NEXT_SEQUENCES,
  SQL_PROJECT_FOR_CREATE,
  SQL_PROJECT_VISIBLE_COUNT,
  SQL_WORKSPACE_VISIBLE_COUNT,
  SQL_STATE_GROUP_KEYS,
  SQL_TALLIES_OF_PROJECT,
  SQL_TALLIES_OF_WORKSPACE,
  SQL_VISIBLE_ISSUE,
  SQL_VISIBLE_ISSUES_OF_PROJECT,
  SQL_VISIBLE_ISSUES_OF_WORKSPACE,
  VISIBLE_ISSUE,
  workspaceScope,
} from './issue.sql';
import type { IntakeSource } from './issue.app-view';
import { IssueListRecord, IssueRecord, issueRecordFromRow } from './issue.view';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What a create reads of its project (`SQL_PROJECT_FOR_CREATE`). */
interface ProjectForCreate {
  archived_at: string | null;
  default_assignee_id: string | null;
}

/** Whose history a profile lists: a workspace's projects `viewerId` is an active member of (`projectIds`: only those). */
export interface ActorActivityScope {
  workspaceId: string;
  viewerId: string;
  projectIds?: string[];
}

/** What the work item picker leaves out (the search room's `IssuePickerQuery`); `self` is the work item being edited. */
export interface PickerExclusions {
  self?: { id: string; parentId: string | null };
  parent?: boolean;
  subIssue?: boolean;
  issueRelation?: boolean;
  cycle?: boolean;
  moduleId?: string;
}

/**
 * The picker's exclusions (see `PickerExclusions`) as conditions over the work items `i`, their
 * values bound with `bind`: the relation, cycle and module rooms' link tables are read by name
 * (they sit above this one).
 */
function pickerExclusions(exclude: PickerExclusions, bind: Bind): string[] {
  const where: string[] = [];
  const self = exclude.self;
  if (self) {
    const id = `${bind(self.id)}::uuid`;
    where.push(`i.id <> ${id}`);
    if (exclude.parent) {
      // not its own descendants: that would make a loop
      where.push(`i.id NOT IN (WITH RECURSIVE d(id) AS (SELECT id FROM issues WHERE parent_id = ${id} AND deleted_at IS NULL
        UNION SELECT c.id FROM issues c JOIN d ON c.parent_id = d.id WHERE c.deleted_at IS NULL) SELECT id FROM d)`);
      if (self.parentId) where.push(`i.id <> ${bind(self.parentId)}::uuid`);
    }
    if (exclude.subIssue) {
      where.push('i.parent_id IS NULL');
      // not its own ancestors: that would make a loop
      where.push(`i.id NOT IN (WITH RECURSIVE a(id, parent_id) AS (SELECT id, parent_id FROM issues WHERE id = ${id}
        UNION SELECT c.id, c.parent_id FROM issues c JOIN a ON c.id = a.parent_id) SELECT id FROM a)`);
    }
    if (exclude.issueRelation) {
      where.push(`NOT EXISTS (SELECT 1 FROM issue_relations r WHERE r.deleted_at IS NULL AND
        ((r.issue_id = ${id} AND r.related_issue_id = i.id) OR (r.related_issue_id = ${id} AND r.issue_id = i.id)))`);
    }
  }
  if (exclude.cycle)
    where.push('NOT EXISTS (SELECT 1 FROM cycle_issues ci WHERE ci.issue_id = i.id AND ci.deleted_at IS NULL)');
  if (exclude.moduleId) {
    where.push(
      `NOT EXISTS (SELECT 1 FROM module_issues mi WHERE mi.issue_id = i.id AND mi.module_id = ${bind(exclude.moduleId)}::uuid AND mi.deleted_at IS NULL)`,
    );
  }
  return where;
}

/** The work items of one cycle or module: its link table (`cycle_issues`, `module_issues`), owner column and id. */
export interface PlanningLinkScope {
  table: 'cycle_issues' | 'module_issues';
  column: 'cycle_id' | 'module_id';
  id: string;
}

/**
 * Where a list reads: one project (its id), or the workspace's projects `viewerId` is an active
 * member of, each under its Guest rule (Plane's `WorkspaceViewIssuesViewSet`).
 */
export type IssueScope = string | { workspaceId: string; viewerId: string };

/**
 * One group of a grouped list: the grouping and the group's key (`null`: no value), and how many
 * work items it holds when the caller counted every group at once (`groupCounts`).
 */
export interface IssueGroup extends GroupKey {
  total?: () => Promise<number>;
  /**
   * A group of assignees, labels, a cycle or a module read from its own rows (`issue_assignees`…,
   * by the value's index) and sorted, rather than by a walk of the list in its order that checks
   * each work item: for a group that is small beside the list, whose page such a walk finds only
   * after passing most of the list (the caller decides, from the group's size: `readFromSet`).
   */
  fromSet?: boolean;
  /**
   * The key as an SQL expression of its type instead of a bound value (`groupPages`: the column of
   * the keys' `unnest` that a `LATERAL` per group reads); `key` is then only its stand-in, not null.
   */
  keySql?: string;
}

/**
 * Whether a page of a group of `size` work items, at row `offset` of it and `limit` rows long, in a
 * list of `listSize`, reads fewer rows from the group's own rows (`IssueGroup.fromSet`: all `size`
 * of them) than by a walk of the list (about `(offset + limit) × listSize / size` of them, for a
 * group spread evenly; more when its work items are old).
 */
export function readFromSet(size: number, offset: number, limit: number, listSize: number): boolean {
  return size * size <= (offset + limit) * listSize;
}

/**
 * Which columns a page of work items reads: all of them (`ISSUE_COLUMNS`), or those of the App
 * API's list shape (`'list'`: `ISSUE_LIST_COLUMNS`, no description; `IssueListRecord`).
 */
export type IssueColumns = 'all' | 'list';
/** The work item a page of `C` columns holds. */
export type IssueOfColumns<C extends IssueColumns> = C extends 'list' ? IssueListRecord : IssueRecord;

/** A row of `search`: a work item hit with its project key and workspace slug. */
export interface IssueSearchHit {
  id: string;
  name: string;
  sequence_id: number;
  project__identifier: string;
  project_id: string;
  workspace__slug: string;
}

/**
 * The visible work items (`VISIBLE_ISSUE`: `i` joined to its live, unarchived project `p`) as a
 * query, for the pickers and searches of the features above (their repositories narrow it). The
 * query builder adds `i.deleted_at IS NULL` itself.
 */
export function visibleIssuesQuery(em: EntityManager): SelectQueryBuilder<Issue> {
  return em
    .getRepository(Issue)
    .createQueryBuilder('i')
    .innerJoin('Project', 'p', `p.id = i.project_id AND ${LIVE_PROJECT}`)
    .where(VISIBLE_ISSUE);
}

/** The start keys of a sync's pages (`IssueRepository.syncKeys`) and how many work items there are. */
export interface SyncKeys {
  /** `[updated_at as PostgreSQL's text, id]` of each page's first work item, page 0 first */
  keys: Array<[string, string]>;
  total: number;
}

/**
 * `filters` as ` AND …` conditions over `i` for the sync (`syncKeys`, `syncPage`), with a changed
 * after time also as `i.updated_at > t` (implied by the millisecond comparison, which no index
 * serves), so that a delta walks `ix_issues_project_live_updated` from `t`.
 */
function syncConditions(filters: IssueFilterSet, bind: Bind): string {
  const where = issueFilterConditions(filters, bind);
  if (filters.updated_after !== undefined) where.push(`i.updated_at > ${bind(filters.updated_after)}::timestamptz`);
  return where.map((c) => ` AND ${c}`).join('');
}

/**
 * The fewest of the newest name hits a work item search ranks (`issueSearch`: the window is this or
 * the page's size, whichever is larger); the exact id hits come on top of them.
 */
export const SEARCH_WINDOW = 100;

/** `%q%` for `ILIKE … ESCAPE '\'`, with `\`, `%` and `_` taken literally (Plane's `icontains`). */
export const likeText = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The exact hits of a search text (Plane's key lookups): a key `WEB-12` (project `WEB`'s work item
 * 12), a number `12` (work item 12 of any project searched), or several numbers (`entity-search/`
 * takes every number of the text).
 */
export type IssueExactHit = { identifier: string; sequence: number } | { sequences: number[] };

/** The exact hit of a search text: `WEB-12` a key, `12` a number; undefined for other text. */
export function exactIssueKey(q: string): IssueExactHit | undefined {
  const key = /^(.+)-(\d{1,9})$/.exec(q);
  if (key) return { identifier: key[1].toUpperCase(), sequence: Number(key[2]) };
  if (/^\d{1,9}$/.test(q)) return { sequences: [Number(q)] };
  return undefined;
}

/** The columns of a work item hit that `IssueSearchSpec.columns` and the ranking may read (`i.…`). */
const HIT_COLUMNS = [
  'id',
  'name',
  'created_at',
  'sequence_id',
  'project_id',
  'priority',
  'state_id',
  'type_id',
  'start_date',
] as const;

/** What a work item search (`issueSearch`) looks for, in whose scope, and what it answers. */
export interface IssueSearchSpec {
  workspaceId: string;
  userId: string;
  /** one project of the workspace (still only if the caller is an active member of it) */
  projectId?: string;
  /** the text (trimmed); empty: the newest visible work items */
  q: string;
  exact?: IssueExactHit;
  /** the Guest rule per project (`entity-search/`): a Guest sees only their own work items unless the project shows all */
  guestRule?: boolean;
  /** also the newest work items of the caller's projects whose identifier contains the text (`entity-search/`) */
  projectIdentifier?: boolean;
  /** the picker's exclusions (`search-issues/`) */
  exclude?: PickerExclusions;
  /**
   * how the name hits are read (`walksNewest`): true, the newest work items tested one by one until
   * the window's hits; false, every hit from the trigram index, sorted. The same hits either way.
   */
  walk?: boolean;
  /**
   * the answer's columns over `i` (the work item's `HIT_COLUMNS`), `sp` (`id, identifier, name, slug`
   * of its project) and `s` (its state, with `withState`)
   */
  columns: string;
  withState?: boolean;
  limit: number;
}

/**
 * A work item search as one plain statement (`$n` placeholders): the caller's scope written once, a
 * CTE `sp` of the live, unarchived projects of the workspace they are an active member of (one with
 * `projectId`), with each project's key, name, the workspace slug and whether the caller sees all
 * its work items (above Guest, or `guest_view_all_features`), and a CTE `tri` of the work items
 * waiting in intake. Each branch of hits reads the work items through an index with those two as an
 * array and a hashed set (`workspaceScope`'s form: no join per row).
 *
 * Hits: the exact id hits (`exact`, through `(project_id, sequence_id)`), the newest
 * `max(limit, SEARCH_WINDOW)` work items whose name contains the text (Plane's `icontains`: any
 * case, anywhere; `\`, `%`, `_` literal) and, with `projectIdentifier`, as many of the newest work
 * items of the projects whose identifier contains it. Bounded by the page, not by the number of
 * hits: the name hits are read one of two ways, both written in the statement and one of them cut
 * off by `walk` (a one-time filter): a common text walks the newest work items
 * (`ix_issues_workspace_live_created`, or the project's `ix_issues_project_live_created`) and stops
 * after the window's hits; a rare one reads its few hits from the trigram index
 * (`ix_issues_name_trgm`) and sorts them. The caller chooses by the name column's statistics
 * (`walksNewest`), as the planner did when the statement was planned each time; so the statement's
 * plan does not depend on its values and it runs as a named (prepared) statement, its generic plan
 * kept (no planning per request). The walk tests `lower(name) LIKE lower(pattern)`, which is what
 * `name ILIKE pattern` computes in a UTF-8 database, with the pattern lowered once. A name equal to
 * the text but older than the window's hits is not among them (BENCHMARKS.md "Search at scale",
 * docs/decisions.md).
 *
 * Ranking, within the hits: the exact id hits first, then the names equal to the text, starting
 * with it, with a word starting with it, containing it, then by trigram similarity, newest first,
 * at most `limit`. An empty text: the newest visible work items, at most `limit`.
 */
export function issueSearch(spec: IssueSearchSpec): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const placeholder = bindPositional(values);
  // every value is a column of the one-row CTE `k`, read through an InitPlan: the planner sees none
  // of them, so a run's custom plan is the generic plan, which PostgreSQL then keeps (a custom plan
  // with the values would be cheaper by its estimates for some texts, and be planned every time)
  const kept: string[] = [];
  const keep = (expr: string) => {
    kept.push(`${expr} AS v${kept.length}`);
    return `(SELECT k.v${kept.length - 1} FROM k)`;
  };
  const bind = (value: unknown, type = 'text') => keep(`${placeholder(value)}::${type}`);
  const ws = bind(spec.workspaceId, 'uuid');
  const viewer = bind(spec.userId, 'uuid');
  const project = spec.projectId === undefined ? undefined : bind(spec.projectId, 'uuid');
  const window = Math.max(spec.limit, SEARCH_WINDOW);
  const projectScope = project ? `i.project_id = ${project} AND ` : '';
  // (`sp` holds the one project with `projectId`; `i.project_id = $n` lets a walk use that project's
  // index, and is left out of the trigram branch, whose generic plan would otherwise join the
  // project's every row from another index to the trigram index's hits)
  const scopeOfAnyProject = [
    `i.workspace_id = ${ws}`,
    'i.project_id = ANY(ARRAY(SELECT sp.id FROM sp))',
    `i.deleted_at IS NULL AND ${OPEN_ISSUE}`,
    'i.id NOT IN (SELECT tri.issue_id FROM tri)',
    ...(spec.guestRule
      ? [`(i.created_by_id = ${viewer} OR i.project_id = ANY(ARRAY(SELECT sp.id FROM sp WHERE sp.sees_all)))`]
      : []),
    ...(spec.exclude ? pickerExclusions(spec.exclude, bind) : []),
  ].join(' AND ');
  const scope = `${projectScope}${scopeOfAnyProject}`;
  const newest = `ORDER BY i.created_at DESC, i.id DESC`;
  // what the answers and the ranking read of a hit, carried out of the branch (no second lookup by
  // id), and the name in lower case (`ln`), computed once for the ranking's three tests
  const hitColumns = `${HIT_COLUMNS.map((c) => `i.${c}`).join(', ')}, lower(i.name) AS ln`;
  const q = spec.q;
  let hits: string;
  let order = `${newest} LIMIT ${spec.limit}`;
  if (!q) hits = `SELECT ${hitColumns} FROM issues i WHERE ${scope} ${newest} LIMIT ${spec.limit}`;
  else {
    const like = bind(likeText(q));
    // `lower(name) LIKE lower(pattern)` is what `name ILIKE pattern` computes in a UTF-8 database
    // (PostgreSQL's like.c lowers both), without lowering the pattern again for every row
    const lowerLike = keep(`lower(${placeholder(likeText(q))}::text)`);
    const lowerPrefix = keep(`lower(${placeholder(likeText(q).slice(1))}::text)`);
    const lowerWord = keep(`lower(${placeholder(`% ${likeText(q).slice(1)}`)}::text)`);
    const walk = bind(spec.walk === true, 'boolean');
    const branches = [
      // a common text: the newest work items, tested one by one, until the window's hits
      `(SELECT ${hitColumns} FROM issues i WHERE ${scope} AND lower(i.name) LIKE ${lowerLike}
AND ${walk} ${newest} LIMIT ${window})`,
      // a rare one: its hits from the trigram index (the subquery's fence keeps the walk's order out), sorted
      `(SELECT g.* FROM (SELECT ${hitColumns} FROM issues i WHERE ${scopeOfAnyProject} AND i.name ILIKE ${like}
AND NOT ${walk} OFFSET 0) g ORDER BY g.created_at DESC, g.id DESC LIMIT ${window})`,
    ];
    let exact: string | undefined;
    if (spec.exact && 'identifier' in spec.exact) {
      const ident = bind(spec.exact.identifier);
      const seq = bind(spec.exact.sequence, 'int');
      branches.unshift(
        `(SELECT ${hitColumns} FROM issues i WHERE ${scope} AND i.project_id = ANY(ARRAY(SELECT sp.id FROM sp WHERE sp.identifier = ${ident})) AND i.sequence_id = ${seq})`,
      );
      exact = `sp.identifier = ${ident} AND i.sequence_id = ${seq}`;
    } else if (spec.exact?.sequences.length) {
      const seqs = bind(spec.exact.sequences, 'int[]');
      branches.unshift(`(SELECT ${hitColumns} FROM issues i WHERE ${scope} AND i.sequence_id = ANY(${seqs}::int[]))`);
      exact = `i.sequence_id = ANY(${seqs}::int[])`;
    }
    if (spec.projectIdentifier) {
      // each matching project's newest (its own index, `ix_issues_project_live_created`), then the
      // newest of those: a text no identifier contains reads no work item
      branches.push(`(SELECT sx.* FROM sp CROSS JOIN LATERAL (SELECT ${hitColumns} FROM issues i
WHERE i.project_id = sp.id AND ${scope} ${newest} LIMIT ${window}) sx
WHERE sp.identifier ILIKE ${like} ORDER BY sx.created_at DESC, sx.id DESC LIMIT ${window})`);
    }
    hits = branches.join(' UNION ');
    const lower = bind(q.toLowerCase());
    const text = bind(q);
    order = `ORDER BY CASE ${exact ? `WHEN ${exact} THEN 0 ` : ''}WHEN i.ln = ${lower} THEN 1
WHEN i.ln LIKE ${lowerPrefix} THEN 2 WHEN i.ln LIKE ${lowerWord} THEN 3 ELSE 4 END,
similarity(i.name, ${text}) DESC, i.created_at DESC, i.id DESC LIMIT ${spec.limit}`;
  }
  const text = `WITH k AS MATERIALIZED (SELECT ${kept.join(', ')}),
sp AS MATERIALIZED (SELECT p.id, p.identifier, p.name, w.slug,
(pm.role > 5 OR p.guest_view_all_features = true) AS sees_all
FROM project_members pm JOIN projects p ON p.id = pm.project_id AND p.workspace_id = ${ws} AND ${LIVE_PROJECT}
JOIN workspaces w ON w.id = p.workspace_id
WHERE pm.member_id = ${viewer} AND pm.is_active = true AND pm.deleted_at IS NULL${project ? ` AND pm.project_id = ${project}` : ''}),
tri AS MATERIALIZED (SELECT ii.issue_id FROM intake_issues ii WHERE ${project ? `ii.project_id = ${project}` : `ii.workspace_id = ${ws}`}
AND ii.deleted_at IS NULL AND ii.status IN (${INTAKE_PENDING}, ${INTAKE_SNOOZED})),
hit AS (${hits})
SELECT ${spec.columns} FROM hit i JOIN sp ON sp.id = i.project_id${
    spec.withState ? ' LEFT JOIN states s ON s.id = i.state_id' : ''
  }
${order}`;
  return { text, values };
}

/**
 * Soft-deletes the comment if it is still live (`deleted_at` now, `updated_by` the deleter), in
 * `em`'s transaction; false when it was already deleted. Conditional on `deleted_at IS NULL`, so of
 * concurrent deletes of one comment the first takes the row lock and the others, once it commits,
 * match nothing: one 204, the rest 404, as every other kind (a plain `UPDATE … WHERE id` answered
 * 204 to all of them on PostgreSQL). Shared with the published boards' comment delete.
 */
export async function softDeleteComment(em: EntityManager, commentId: string, userId: string): Promise<boolean> {
  const res = await em.update(
    IssueComment,
    { id: commentId, deletedAt: IsNull() },
    { deletedAt: new Date(), updatedById: userId },
  );
  return (res.affected ?? 0) > 0;
}

/** `softDeleteComment` for a work item link. */
export async function softDeleteLink(em: EntityManager, linkId: string, userId: string): Promise<boolean> {
  const res = await em.update(
    IssueLink,
    { id: linkId, deletedAt: IsNull() },
    { deletedAt: new Date(), updatedById: userId },
  );
  return (res.affected ?? 0) > 0;
}

/**
 * Inserts work item history rows (one statement) in `em`'s transaction (`writeActivities` builds
 * them); each row's id, in order (null where the driver answered none).
 */
export async function insertActivities(
  em: EntityManager,
  rows: Array<Record<string, unknown>>,
): Promise<Array<string | null>> {
  const inserted = await em.insert(IssueActivity, rows as never);
  return inserted.identifiers.map((i) => (i?.id as string | undefined) ?? null);
}

/**
 * All of the work item room's SQL (Plane `plane/db/models/issue.py`): the visible work items
 * (`issue.sql.ts`), the v1 and App lists through the one filter compiler (`issue-filters.ts`), the
 * App values, lookups, search, and the create, update and batch statements. Methods that take an
 * `EntityManager` run in the caller's transaction.
 */
/** A work item row's size in bytes as its large text columns hold it (`SqlKeysetList.weight`). */
const ISSUE_TEXT_BYTES = 'octet_length(i.description_html) + octet_length(i.description_stripped)';
/**
 * The most text (bytes) one page of work items may hold: half the answer budget
 * (`ANSWER_MEMORY_BUDGET`), 32 MiB by default: about 64 of the largest descriptions (docs/errors.md
 * "Field size limits"), or a page of 1000 with 16 KiB each.
 */
const pageTextBytes = () => Math.floor(answerBudget().capacity / 2);
/** A comment's size in bytes, as its text columns hold it (`readInChunks`' weight). */
const COMMENT_WEIGHT =
  'octet_length(c.commentHtml) + octet_length(c.commentStripped) + octet_length(CAST(c.commentJson AS text))';
/** A history row's size in bytes (its values can be a description's HTML). */
const ACTIVITY_WEIGHT =
  'COALESCE(octet_length(a.oldValue), 0) + COALESCE(octet_length(a.newValue), 0) + octet_length(a.comment)';

/**
 * The filters of a published board's list of work items (any value of a filter matches; empty or
 * absent: no filter): state ids, state groups, priorities, label ids, assignee ids.
 */
export interface BoardIssueFilters {
  state?: string[];
  state_group?: string[];
  priority?: string[];
  labels?: string[];
  assignees?: string[];
}

/** The order of a published board's list: a key of `ISSUE_ORDER_KEYS` and the direction. */
export interface BoardIssueOrder extends IssueOrderKey {
  order: 'ASC' | 'DESC';
}

@Injectable()
export class IssueRepository {
  /** where the next page by number of a list starts (`SqlKeysetList.bookmarks`): the app's store, else this process's */
  private readonly bookmarks: PageBookmarks;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Optional() @Inject(PAGE_BOOKMARKS) bookmarks?: PageBookmarks,
  ) {
    this.bookmarks = bookmarks ?? new MemoryPageBookmarks();
  }

  /** `issues.name`'s statistics as last read (`searchNameStats`), when they were asked, and the first read. */
  private nameStats?: NameStats;
  private nameStatsLoaded = false;
  private nameStatsAt = -Infinity;
  private nameStatsFirst?: Promise<NameStats | undefined>;

  /**
   * `issues.name`'s statistics for the work item search's choice of reading (`walksNewest`): the
   * last ones read, read again in the background once `NAME_STATS_TTL_MS` old; a promise only until
   * the first read has answered (undefined when there are none, or they cannot be read). No wait
   * otherwise, so that a search's statement joins its request's `ReadBatch` in the same turn.
   */
  private searchNameStats(): NameStats | undefined | Promise<NameStats | undefined> {
    if (Date.now() - this.nameStatsAt > NAME_STATS_TTL_MS) {
      this.nameStatsAt = Date.now();
      const read = hotQuery(
        this.dataSource,
        `SELECT s.histogram_bounds::text::text[] AS histogram, s.most_common_vals::text::text[] AS common,
s.most_common_freqs AS common_freqs, s.null_frac, c.reltuples AS rows
FROM pg_class c LEFT JOIN pg_stats s ON s.schemaname = current_schema() AND s.tablename = 'issues'
AND s.attname = 'name' AND NOT s.inherited WHERE c.oid = 'issues'::regclass`,
        [],
      ).then(
        ([r]) => {
          const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
          this.nameStats = r
            ? {
                histogram: list(r.histogram),
                common: list(r.common),
                commonFreqs: list(r.common_freqs).map(Number),
                nullFrac: Number(r.null_frac ?? 0),
                rows: Number(r.rows),
              }
            : undefined;
          this.nameStatsLoaded = true;
          return this.nameStats;
        },
        () => {
          this.nameStatsLoaded = true;
          return this.nameStats;
        },
      );
      this.nameStatsFirst ??= read;
    }
    return this.nameStatsLoaded ? this.nameStats : this.nameStatsFirst;
  }

  /**
   * Whether a search for `q` with `limit` hits reads the newest work items one by one
   * (`walksNewest`, from `issues.name`'s statistics: `searchNameStats`); a promise only until the
   * first read of the statistics has answered, so a search's statement otherwise joins its
   * request's `ReadBatch` in the same turn.
   */
  private searchWalks(q: string, limit: number): boolean | Promise<boolean> {
    const stats = this.searchNameStats();
    const window = Math.max(limit, SEARCH_WINDOW);
    return stats instanceof Promise ? stats.then((s) => walksNewest(q, s, window)) : walksNewest(q, stats, window);
  }

  // ---- reads: lists --------------------------------------------------------------------------

  /**
   * A page of the visible work items of a project (v1 list, App list) or of the caller's projects
   * of a workspace (`visibleSql`: `SQL_VISIBLE_ISSUES_OF_PROJECT` or `_WORKSPACE` and the filters) in
   * plain SQL: no join duplicates a row, so the total is a `COUNT(*)` that the scope's index
   * (`ix_issues_project_live_created`, `ix_issues_workspace_live_created`) serves, or with no
   * filter the projects' counters. No query builder per request. `columns`: see `IssueColumns`.
   * A project's statements are named (prepared once per connection); a workspace's filtered ones
   * are planned each time (`PLANNED_EACH_TIME`): at a workspace's size a generic plan that suits
   * one filter value (a common assignee) can walk every work item for another (a rare one).
   * `values`: a page by number also reads its rows' App API values (`APP_VALUE_COLUMNS`, as
   * `appValues` reads them) in its own statement, over the page's rows only, and puts them here by
   * work item id (the raw rows); other pages leave it empty.
   */
  async visiblePage<C extends IssueColumns = 'all'>(
    scope: IssueScope,
    filters: IssueFilterSet,
    order: IssueOrderKey,
    desc: boolean,
    page: PageRequest,
    group?: IssueGroup,
    columns?: C,
    values?: Map<string, Row>,
  ): Promise<Page<IssueOfColumns<C>>> {
    // in creation order, one assignee's or one label's work items (a group or a filter): read from
    // that value's rows in that order (`byCreation`)
    const byCreation = order.key === CREATED_AT;
    const { from, params, conditions, rows } = visibleSql(scope, filters, group, byCreation);
    const project = typeof scope === 'string';
    // the page and its total are read together: one connection, one round trip (`ReadBatch`)
    const batch = new ReadBatch();
    let total: SqlKeysetList['total'] = group?.total;
    // no filter: the projects' counters, not a count of the list
    if (!total && !conditions)
      total = project
        ? { sql: SQL_PROJECT_VISIBLE_COUNT, params: [scope] }
        : () => this.workspaceTotal(scope.workspaceId, scope.viewerId, batch);
    // filters the tallies hold: the sum of their rows (`countRows`), not a count of the list
    else if (!total && !group && tallySql(scope, filters)) total = () => this.countRows(scope, filters, false, batch);
    // one assignee or one label alone: its tallies
    if (!total) total = this.talliedTotal(scope, filters, false, batch);
    return paginateSql(
      {
        select: columns === 'list' ? ISSUE_LIST_COLUMNS : ISSUE_COLUMNS,
        from,
        params,
        key: rows ? 'ga.issue_created_at' : order.key,
        id: rows ? 'ga.issue_id' : 'i.id',
        keyType: order.keyType,
        order: desc ? 'DESC' : 'ASC',
        total,
        // with the descriptions: a page holds at most half the answer budget of them (memory per
        // request); the workspace list reads them only for `fields`/`expand`, and never refused
        weight: columns === 'list' || !project ? undefined : { sql: ISSUE_TEXT_BYTES, maxBytes: pageTextBytes() },
        pageColumns: values ? APP_VALUE_COLUMNS : undefined,
        // a page after one answered is read from where that one ended (its last row's key and id)
        bookmarks: this.bookmarks,
      },
      page,
      // the rows are only written out: their times stay text (`ISO_TIMES`)
      (text, args) =>
        this.visibleQuery(scope, conditions, text, args, values ? ISO_TIMES_UUID_ARRAYS : ISO_TIMES, batch),
      values
        ? (row: Row) => {
            // a page by number's rows carry their App values (`pageColumns`); other pages' do not
            if ('assignee_ids' in row) values.set(row.id as string, row);
            return issueRecordFromRow(row) as IssueOfColumns<C>;
          }
        : (issueRecordFromRow as (row: Row) => IssueOfColumns<C>),
    );
  }

  /**
   * Page `page.number` of each of the groups `keys` (none null) of the grouping `by` over the
   * visible work items of the scope with `filters`, in one statement: the rows `visiblePage` would
   * read for each group (`page.perPage + 1` at most, the last only telling that more follow), by
   * key. A `LATERAL` per key over `unnest` of the keys reads the group's page as its own statement
   * would (the same `visibleSql`, the group's condition on the key's column, `numberedPageSql`'s
   * start and order): planned once, one round trip, where a statement per group was planned each
   * time (50 at a workspace of ten projects' states, 201 for its members). Only for what
   * `visiblePage` reads without a size bound (`columns` `'list'`, or a workspace). With
   * `withValues`, each row also carries its App API values (`APP_VALUE_COLUMNS`, as `appValues`
   * reads them), computed over the page's rows only: `values` by work item id.
   */
  async groupPages<C extends IssueColumns = 'all'>(
    scope: IssueScope,
    filters: IssueFilterSet,
    order: IssueOrderKey,
    desc: boolean,
    page: PageRequest & { number: number },
    by: IssueGroupBy,
    keys: string[],
    columns?: C,
    withValues = false,
  ): Promise<{ pages: Map<string, Array<IssueOfColumns<C>>>; values: Map<string, Row> }> {
    const pages = new Map<string, Array<IssueOfColumns<C>>>();
    const valuesById = new Map<string, Row>();
    if (!keys.length) return { pages, values: valuesById };
    const group: IssueGroup = { by, key: keys[0], keySql: 'gk.k' };
    const { from, params, conditions, rows } = visibleSql(scope, filters, group, order.key === CREATED_AT);
    const list = {
      from,
      params,
      key: rows ? 'ga.issue_created_at' : order.key,
      id: rows ? 'ga.issue_id' : 'i.id',
      order: desc ? ('DESC' as const) : ('ASC' as const),
    };
    const numbered = numberedPageSql(list, page.number * page.perPage);
    const values = [
      ...numbered.params,
      GROUP_KEY_TYPE[by] === 'uuid' ? uuidArrayLiteral(keys) : keys,
      page.perPage + 1,
    ];
    // the page's rows are `i` outside the LATERAL too, which the App values read
    const text =
      `SELECT gk.n::int AS __group, i.*${withValues ? `,\n${APP_VALUE_COLUMNS}\n` : ' '}` +
      `FROM unnest($${values.length - 1}::${GROUP_KEY_TYPE[by]}[]) WITH ORDINALITY AS gk(k, n)\n` +
      `CROSS JOIN LATERAL (SELECT ${columns === 'list' ? ISSUE_LIST_COLUMNS : ISSUE_COLUMNS}, ${list.key} AS __order_key ` +
      `${numbered.from} ${numbered.ordered} LIMIT $${values.length}) i\n` +
      // the groups in the keys' order, each page's rows in the page's order (said, not left to the plan)
      `ORDER BY gk.n, i.__order_key ${list.order}, i.id ${list.order}`;
    const read = await this.visibleQuery(
      scope,
      conditions + 1,
      text,
      values,
      withValues ? ISO_TIMES_UUID_ARRAYS : ISO_TIMES,
    );
    // each group's rows come in its page's order (the statement's ORDER BY)
    for (const row of read) {
      const key = keys[(row.__group as number) - 1];
      const list = pages.get(key);
      const issue = issueRecordFromRow(row) as IssueOfColumns<C>;
      if (list) list.push(issue);
      else pages.set(key, [issue]);
      if (withValues) valuesById.set(issue.id, row);
    }
    return { pages, values: valuesById };
  }

  /**
   * Runs a statement over `visibleSql` (`conditions` of its filters and group): named (`hotQuery`),
   * but planned each time for a workspace's filtered list (see `visiblePage`). In `batch` when given.
   */
  private visibleQuery(
    scope: IssueScope,
    conditions: number,
    text: string,
    values: unknown[],
    types?: TypeParsers,
    batch?: ReadBatch,
  ): Promise<Row[]> {
    const each = typeof scope !== 'string' && conditions > 0;
    return this.read(each ? `/* ${PLANNED_EACH_TIME} */ ${text}` : text, values, types, batch);
  }

  /** One statement: in `batch` (with the other reads of the same turn, `ReadBatch`) when given, else `hotQuery`. */
  private read(text: string, values: unknown[], types?: TypeParsers, batch?: ReadBatch): Promise<Row[]> {
    return batch ? batch.query(this.dataSource, text, values, types) : hotQuery(this.dataSource, text, values, types);
  }

  /**
   * How many visible work items the workspace's projects hold for the viewer: their counters'
   * sum (`workspaceVisibleCount`), or, when the Guest rule narrows one of them, a count of the list.
   */
  private async workspaceTotal(workspaceId: string, viewerId: string, batch?: ReadBatch): Promise<number> {
    return (
      (await this.workspaceVisibleCount(workspaceId, viewerId, batch)) ??
      this.countRows({ workspaceId, viewerId }, {}, false)
    );
  }

  /**
   * The work items of the scope (a project, or the caller's projects of a workspace) with the
   * filters applied, as a query: visible ones, or with `archived` the archived ones (not deleted,
   * not drafts, project live and not archived). Shared by the App lists, their groups, the archived
   * list and the App lookups, so all filter alike.
   */
  private filtered(scope: IssueScope, filters: IssueFilterSet, archived: boolean): SelectQueryBuilder<Issue> {
    const qb = archived
      ? this.dataSource
          .getRepository(Issue)
          .createQueryBuilder('i')
          .innerJoin('Project', 'p', `p.id = i.project_id AND ${LIVE_PROJECT}`)
          .where('i.archived_at IS NOT NULL AND i.is_draft = false')
      : visibleIssuesQuery(this.dataSource.manager);
    const params: Record<string, unknown> = {};
    const bind = bindNamed(params);
    if (typeof scope === 'string') qb.andWhere(`i.project_id = ${bind(scope)}`);
    // the caller's projects, a Guest's under the Guest rule of each (as `SQL_VISIBLE_ISSUES_OF_WORKSPACE`)
    else qb.andWhere(workspaceScope(bind(scope.workspaceId), bind(scope.viewerId)));
    for (const condition of issueFilterConditions(filters, bind)) qb.andWhere(condition);
    return qb.setParameters(params);
  }

  /**
   * A page of `filtered` (App lists, archived list), narrowed to one `group` when given. `columns`
   * (see `IssueColumns`) narrows what the visible work items read; the archived list reads whole
   * work items. `values`: see `visiblePage` (the archived list leaves it empty).
   */
  async filteredPage<C extends IssueColumns = 'all'>(
    scope: IssueScope,
    filters: IssueFilterSet,
    archived: boolean,
    order: IssueOrderKey,
    desc: boolean,
    page: PageRequest,
    group?: IssueGroup,
    columns?: C,
    values?: Map<string, Row>,
  ): Promise<Page<IssueOfColumns<C>>> {
    // visible work items (a project's App list and its groups, the board; the workspace list): plain SQL
    if (!archived) return this.visiblePage(scope, filters, order, desc, page, group, columns, values);
    const qb = this.filtered(scope, filters, archived);
    if (group) {
      const params: Record<string, unknown> = {};
      qb.andWhere(groupCondition(group, bindNamed(params, 'g')), params);
    }
    // whole work items (an `Issue` is an `IssueRecord`, and so an `IssueListRecord`)
    return (await paginate(qb, page, {
      key: order.key,
      keyType: order.keyType,
      order: desc ? 'DESC' : 'ASC',
      // a group counted with the others (else counted here); the list: `COUNT(*)`
      total: group ? group.total : () => this.countRows(scope, filters, archived),
    })) as Page<IssueOfColumns<C>>;
  }

  /**
   * How many visible work items the project has (`SQL_PROJECT_VISIBLE_COUNT`: its maintained
   * counter, one row read), what `filtered` would count for it with no filter.
   */
  async visibleCount(projectId: string): Promise<number> {
    const [row] = await hotQuery(this.dataSource, SQL_PROJECT_VISIBLE_COUNT, [projectId]);
    return Number(row.n);
  }

  /**
   * The visible work items of each of `projectIds` (their maintained counters, `visible_count`:
   * not deleted, archived, a draft or waiting in intake, whatever the project's own state), 0 for a
   * project without a counter row; one statement.
   */
  async visibleCounts(projectIds: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>(projectIds.map((id) => [id, 0]));
    if (!projectIds.length) return out;
    const rows: Array<{ project_id: string; n: number }> = await this.dataSource.query(
      `SELECT c.project_id::text AS project_id, c.visible_count AS n FROM project_issue_counters c WHERE c.project_id = ANY($1::uuid[])`,
      [projectIds],
    );
    for (const r of rows) out.set(r.project_id, Number(r.n));
    return out;
  }

  /**
   * `filtered`'s total from the project's counter when `filtered` is a project's visible work items
   * with no filter (no Guest rule either), else undefined (count the list).
   */
  private counted(scope: IssueScope, filters: IssueFilterSet, archived: boolean): (() => Promise<number>) | undefined {
    if (archived || issueFilterConditions(filters, bindNamed({})).length) return undefined;
    if (typeof scope === 'string') return () => this.visibleCount(scope);
    return () => this.workspaceTotal(scope.workspaceId, scope.viewerId);
  }

  /**
   * How many visible work items the live projects of the workspace that `viewerId` is an active
   * member of hold, from their counters (`SQL_PROJECT_VISIBLE_COUNT`'s, one row per project), or
   * null when the Guest rule narrows one of them for the viewer (a Guest of a project without
   * `guest_view_all_features`): then only a count of the list tells.
   */
  async workspaceVisibleCount(workspaceId: string, viewerId: string, batch?: ReadBatch): Promise<number | null> {
    const [row] = await this.read(SQL_WORKSPACE_VISIBLE_COUNT, [workspaceId, viewerId], undefined, batch);
    return row?.n === null || row?.n === undefined ? null : Number(row.n);
  }

  // ---- reads: the tallies per assignee and per label (`issue-tallies.ts`) -------------------

  /**
   * `groupCounts` of `group_by=assignees__id` / `labels__id` from the tallies, when they give the
   * same numbers: the visible work items, no filter, no Guest rule narrowing a project of the scope
   * (`tallyProjects`); else undefined (count). Keys as `groupCounts`' (`null`: no assignee or label;
   * a label's rows whatever its `deleted_at`, as the link rows), groups with no work item left out.
   */
  private async talliedGroupCounts(
    scope: IssueScope,
    by: IssueGroupBy,
    filters: IssueFilterSet,
    archived: boolean,
  ): Promise<Map<string | null, number> | undefined> {
    const kind = tallyKindOf(by);
    if (!kind || archived || issueFilterConditions(filters, bindNamed({})).length) return undefined;
    const params: unknown[] = [];
    const bind = bindPositional(params);
    const projects = tallyProjects(scope, bind);
    const [row] = await hotQuery(
      this.dataSource,
      `WITH sp AS MATERIALIZED (${projects})
SELECT (SELECT bool_and(sp.whole) FROM sp) AS whole,
(SELECT json_agg(json_build_array(x.k, x.n)) FROM (
  SELECT t.value_id::text AS k, SUM(t.n)::int AS n FROM issue_set_tallies t
  WHERE t.kind = ${bind(kind)}::"char" AND t.project_id IN (SELECT sp.id FROM sp) AND (SELECT bool_and(sp.whole) FROM sp)
  GROUP BY 1 HAVING SUM(t.n) > 0) x) AS counts`,
      params,
    );
    if (row?.whole !== true) return undefined;
    const counts = (typeof row.counts === 'string' ? JSON.parse(row.counts) : (row.counts ?? [])) as Array<
      [string | null, number]
    >;
    return new Map(counts.map(([k, n]) => [k, Number(n)]));
  }

  /**
   * The total of the visible work items with one assignee or one label and no other filter
   * (`tallyFilterOf`), from the tallies: the value's rows in the scope's projects (a label's in its
   * own project only, as `withLabel` filters); undefined when the filters are others, or (when
   * called) null when the Guest rule narrows a project of the scope.
   */
  private tallied(
    scope: IssueScope,
    filters: IssueFilterSet,
    archived: boolean,
    batch?: ReadBatch,
  ): (() => Promise<number | null>) | undefined {
    const one = archived ? undefined : tallyFilterOf(filters);
    if (!one) return undefined;
    return async () => {
      const params: unknown[] = [];
      const bind = bindPositional(params);
      const projects = tallyProjects(scope, bind);
      const value = `${bind(one.value)}::uuid`;
      const ofLabel =
        one.kind === 'l' ? ` AND t.project_id = (SELECT lf.project_id FROM labels lf WHERE lf.id = ${value})` : '';
      const [row] = await this.read(
        `WITH sp AS MATERIALIZED (${projects})
SELECT CASE WHEN bool_and(sp.whole) THEN (SELECT COALESCE(SUM(t.n), 0)::int FROM issue_set_tallies t
  WHERE t.kind = ${bind(one.kind)}::"char" AND t.value_id = ${value} AND t.project_id IN (SELECT sp.id FROM sp)${ofLabel}) END AS n
FROM sp`,
        params,
        undefined,
        batch,
      );
      return row?.n === null || row?.n === undefined ? null : Number(row.n);
    };
  }

  /** `tallied`'s total, or a count of the list when the tallies cannot tell (see `tallied`). */
  private talliedTotal(
    scope: IssueScope,
    filters: IssueFilterSet,
    archived: boolean,
    batch?: ReadBatch,
  ): (() => Promise<number>) | undefined {
    const tally = this.tallied(scope, filters, archived, batch);
    if (!tally) return undefined;
    return async () => (await tally()) ?? this.countRows(scope, filters, archived);
  }

  /**
   * The start keys of the pages of `pageSize` of the project's visible work items with `filters`,
   * oldest change first (`updated_at`, then id): the `(updated_at, id)` of every `pageSize`th one,
   * the first one's included, `updated_at` as PostgreSQL's text (microseconds kept), and how many
   * there are, from one walk of `ix_issues_project_live_updated` (the web app's local cache sync,
   * `v2/issues/`, which asks for its pages by number, several at once: `syncPage` reads a page
   * from its start key, so a deep page costs what the first one does).
   */
  async syncKeys(projectId: string, filters: IssueFilterSet, pageSize: number): Promise<SyncKeys> {
    const params: unknown[] = [projectId, pageSize];
    const bind = bindPositional(params);
    const from = SQL_VISIBLE_ISSUES_OF_PROJECT + syncConditions(filters, bind);
    // row_number and lead stream (one row of lookahead): the last row tells the total
    const rows = await hotQuery(
      this.dataSource,
      `SELECT u, id, n, last FROM (SELECT i.updated_at::text AS u, i.id::text AS id,
        row_number() OVER w AS n, lead(i.id) OVER w IS NULL AS last ${from}
        WINDOW w AS (ORDER BY i.updated_at, i.id)) k WHERE (n - 1) % $2 = 0 OR last ORDER BY n`,
      params,
    );
    const keys: Array<[string, string]> = [];
    let total = 0;
    for (const r of rows) {
      if ((Number(r.n) - 1) % pageSize === 0) keys.push([r.u as string, r.id as string]);
      if (r.last) total = Number(r.n);
    }
    return { keys, total };
  }

  /**
   * A page of the project's visible work items with `filters`, oldest change first (`updated_at`,
   * then id): from the key `from` (`syncKeys`; the first page: none) up to before `to` (none: to
   * the end), at most `limit` (whole rows, descriptions included; times as ISO text).
   */
  async syncPage(
    projectId: string,
    filters: IssueFilterSet,
    from: [string, string] | undefined,
    to: [string, string] | undefined,
    limit: number,
  ): Promise<IssueRecord[]> {
    const params: unknown[] = [projectId];
    const bind = bindPositional(params);
    let where = syncConditions(filters, bind);
    if (from) where += ` AND (i.updated_at, i.id) >= (${bind(from[0])}::timestamptz, ${bind(from[1])}::uuid)`;
    if (to) where += ` AND (i.updated_at, i.id) < (${bind(to[0])}::timestamptz, ${bind(to[1])}::uuid)`;
    const rows = await hotQuery(
      this.dataSource,
      `SELECT ${ISSUE_COLUMNS} ${SQL_VISIBLE_ISSUES_OF_PROJECT}${where} ORDER BY i.updated_at, i.id LIMIT ${bind(limit)}`,
      params,
      ISO_TIMES,
    );
    return rows.map(issueRecordFromRow);
  }

  /**
   * Ids of the project's work items that were deleted or archived, changed after `since` when given
   * (`deleted-issues/`); `guestViewerId`: under the Guest rule. Oldest change first.
   */
  async deletedIds(projectId: string, since: string | undefined, guestViewerId?: string): Promise<string[]> {
    const params: unknown[] = [projectId];
    const bind = bindPositional(params);
    const where = ['i.project_id = $1', '(i.deleted_at IS NOT NULL OR i.archived_at IS NOT NULL)'];
    if (since !== undefined)
      where.push(`date_trunc('milliseconds', GREATEST(i.updated_at, i.deleted_at)) > ${bind(since)}::timestamptz`);
    if (guestViewerId !== undefined) where.push(guestCondition(guestViewerId, bind));
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT i.id FROM issues i JOIN projects p ON p.id = i.project_id WHERE ${where.join(' AND ')}
       ORDER BY GREATEST(i.updated_at, i.deleted_at), i.id`,
      params,
    );
    return rows.map((r) => r.id);
  }

  /** The state group of each work item (`state__group`), by id; none for a work item without a state. */
  async stateGroups(ids: string[]): Promise<Map<string, string>> {
    const rows: Array<{ id: string; group: string }> = await this.dataSource.query(
      'SELECT i.id, s."group" FROM issues i JOIN states s ON s.id = i.state_id WHERE i.id = ANY($1::uuid[])',
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r.group]));
  }

  /**
   * How many work items `filtered` holds (a grouped list's total where a work item may be in
   * several groups): the counters' sum when that is the same number (`counted`), else `COUNT(*)`
   * (the project join is one row per work item and the membership a semi-join, so no row is
   * counted twice: no `COUNT(DISTINCT …)`, which sorts every id).
   */
  async filteredCount(scope: IssueScope, filters: IssueFilterSet, archived: boolean): Promise<number> {
    const counter = this.counted(scope, filters, archived) ?? this.talliedTotal(scope, filters, archived);
    if (counter) return counter();
    return this.countRows(scope, filters, archived);
  }

  /**
   * `COUNT(*)` of `filtered` (see `filteredCount`); of `visibleSql` for the visible work items, or
   * the same number as a sum of their tallies when the filters read only the tallies' keys
   * (`tallySql`: a few rows instead of every match).
   */
  private async countRows(
    scope: IssueScope,
    filters: IssueFilterSet,
    archived: boolean,
    batch?: ReadBatch,
  ): Promise<number> {
    const tallied = archived ? undefined : tallySql(scope, filters);
    if (tallied) {
      const [row] = await this.read(
        `SELECT COALESCE(SUM(i.n), 0)::int AS n ${tallied.from}`,
        tallied.params,
        undefined,
        batch,
      );
      return Number(row.n);
    }
    if (!archived) {
      const { from, params, conditions } = visibleSql(scope, filters);
      const [row] = await this.visibleQuery(
        scope,
        conditions,
        `SELECT COUNT(*)::int AS n ${from}`,
        params,
        undefined,
        batch,
      );
      return Number(row.n);
    }
    const row = await this.filtered(scope, filters, archived)
      .select('COUNT(*)::int', 'n')
      .getRawOne<{ n: number | string }>();
    return Number(row?.n ?? 0);
  }

  /**
   * How many work items of `filtered` each group of the grouping `by` holds, in one statement for
   * all groups (a board's columns were counted one statement each: 50 at a workspace of ten
   * projects): keys as `groupCondition` compares them (text, dates as `YYYY-MM-DD`), `null` for
   * the work items with no value (no assignee, label, cycle or module; no state, date, creator).
   * A work item in several groups (assignees, labels, modules) counts in each. Exactly the count
   * `groupCondition` would give each key: the set tables have one row per work item and value
   * (their primary or unique keys), cycle and module rows only when live. A grouping by a key of
   * the visible work items' tallies (state, state group, priority, creator, project) with filters
   * that read only those keys (`tallySql`) sums the tallies instead (groups of 0 left out, as a
   * count leaves them out).
   */
  async groupCounts(
    scope: IssueScope,
    by: IssueGroupBy,
    filters: IssueFilterSet,
    archived: boolean,
  ): Promise<Map<string | null, number>> {
    const fromSets = await this.talliedGroupCounts(scope, by, filters, archived);
    if (fromSets) return fromSets;
    const column: Partial<Record<IssueGroupBy, string>> = {
      state_id: 'i.state_id::text',
      priority: 'i.priority::text',
      created_by: 'i.created_by_id::text',
      project_id: 'i.project_id::text',
      start_date: "to_char(i.start_date, 'YYYY-MM-DD')",
      target_date: "to_char(i.target_date, 'YYYY-MM-DD')",
      state__group: '(SELECT g."group"::text FROM states g WHERE g.id = i.state_id)',
    };
    const sets: Partial<Record<IssueGroupBy, [table: string, column: string, live: string]>> = {
      labels__id: ['issue_labels', 'label_id', ''],
      assignees__id: ['issue_assignees', 'assignee_id', ''],
      cycle_id: ['cycle_issues', 'cycle_id', ' AND g.deleted_at IS NULL'],
      issue_module__module_id: ['module_issues', 'module_id', ' AND g.deleted_at IS NULL'],
    };
    const set = sets[by];
    const tallied = archived || !TALLY_GROUPS.has(by) ? undefined : tallySql(scope, filters);
    if (tallied) {
      const sums = await hotQuery(
        this.dataSource,
        `SELECT ${column[by]!} AS k, SUM(i.n)::int AS n ${tallied.from} GROUP BY 1 HAVING SUM(i.n) > 0`,
        tallied.params,
      );
      return new Map(sums.map((r) => [r.k as string | null, Number(r.n)]));
    }
    const selected = set ? 'i.id' : `${column[by]!} AS k`;
    const count = (rowsSql: string) =>
      set
        ? `SELECT g.${set[1]}::text AS k, COUNT(*)::int AS n FROM (${rowsSql}) x
           LEFT JOIN ${set[0]} g ON g.issue_id = x.id${set[2]} GROUP BY 1`
        : `SELECT x.k, COUNT(*)::int AS n FROM (${rowsSql}) x GROUP BY 1`;
    let rows: Row[];
    if (!archived) {
      const { from, params, conditions } = visibleSql(scope, filters);
      rows = await this.visibleQuery(scope, conditions, count(`SELECT ${selected} ${from}`), params);
    } else {
      const [rowsSql, params] = this.filtered(scope, filters, archived)
        .select(set ? 'i.id' : column[by]!, set ? 'id' : 'k')
        .getQueryAndParameters();
      rows = await this.dataSource.query(count(rowsSql), params);
    }
    return new Map(rows.map((r) => [r.k as string | null, Number(r.n)]));
  }

  /** One work item of `filtered` (the App lookups), or null. */
  findFiltered(projectId: string, issueId: string, filters: IssueFilterSet, archived: boolean): Promise<Issue | null> {
    return this.filtered(projectId, filters, archived).andWhere('i.id = :issueId', { issueId }).getOne();
  }

  /**
   * Every key of a grouping for the scope, `null` for "no value" (Plane's `issue_group_values`): the
   * project's states, labels, members, cycles, modules; for a workspace those of the caller's
   * projects, and the workspace's members. Dates from `filtered`.
   */
  async groupKeys(
    scope: IssueScope,
    groupBy: IssueGroupBy,
    filters: IssueFilterSet,
    archived: boolean,
  ): Promise<Array<string | null>> {
    const params = typeof scope === 'string' ? [scope] : [scope.workspaceId, scope.viewerId];
    // the projects of the scope, as a condition on a `project_id` column
    const inScope =
      typeof scope === 'string'
        ? 'project_id = $1'
        : `project_id IN (SELECT pm.project_id FROM project_members pm JOIN projects sp ON sp.id = pm.project_id
            AND sp.deleted_at IS NULL AND sp.archived_at IS NULL
           WHERE sp.workspace_id = $1 AND pm.member_id = $2 AND pm.is_active = true AND pm.deleted_at IS NULL)`;
    const ids = async (sql: string, values = params) =>
      ((await this.dataSource.query(sql, values)) as Array<{ id: string }>).map((r) => r.id);
    const members = () =>
      typeof scope === 'string'
        ? ids(`SELECT member_id AS id FROM project_members WHERE ${inScope} AND is_active = true AND deleted_at IS NULL
ORDER BY created_at, id`)
        : ids(
            `SELECT member_id AS id FROM workspace_members WHERE workspace_id = $1 AND is_active = true AND deleted_at IS NULL
ORDER BY created_at, id`,
            [scope.workspaceId],
          );
    switch (groupBy) {
      case 'state_id':
        if (typeof scope === 'string')
          return ((await hotQuery(this.dataSource, SQL_STATE_GROUP_KEYS, [scope])) as Array<{ id: string }>).map(
            (r) => r.id,
          );
        return ids(
          `SELECT id FROM states WHERE ${inScope} AND deleted_at IS NULL AND is_triage = false ORDER BY sequence, id`,
        );
      case 'labels__id':
        return [
          ...(await ids(`SELECT id FROM labels WHERE ${inScope} AND deleted_at IS NULL ORDER BY sort_order, id`)),
          null,
        ];
      case 'assignees__id':
        return [...(await members()), null];
      case 'created_by':
        return members();
      case 'cycle_id':
        return [
          ...(await ids(`SELECT id FROM cycles WHERE ${inScope} AND deleted_at IS NULL ORDER BY created_at, id`)),
          null,
        ];
      case 'issue_module__module_id':
        return [
          ...(await ids(`SELECT id FROM modules WHERE ${inScope} AND deleted_at IS NULL ORDER BY created_at, id`)),
          null,
        ];
      case 'project_id':
        return ids(
          `SELECT id FROM projects WHERE ${inScope.replace('project_id', 'id')} AND deleted_at IS NULL ORDER BY created_at, id`,
        );
      case 'start_date':
      case 'target_date': {
        const column = groupBy === 'start_date' ? 'i.startDate' : 'i.targetDate';
        const rows = await this.filtered(scope, filters, archived)
          .select(`DISTINCT to_char(${column}, 'YYYY-MM-DD')`, 'd')
          .orderBy('d')
          .getRawMany<{ d: string | null }>();
        return [...rows.map((r) => r.d).filter((d): d is string => d !== null), null];
      }
      default:
        throw new Error(`groupKeys: ${groupBy} has fixed keys`);
    }
  }

  /**
   * The App API values of work items that are not columns (Plane's `IssueViewSet.list`): assignee,
   * label and module ids, the cycle, the state group, and the sub-item, link and attachment counts. Archived modules
   * and deleted cycles, modules and labels are left out, as in Plane.
   */
  async appValues(ids: string[]): Promise<Array<Record<string, unknown>>> {
    return hotQuery(this.dataSource, SQL_APP_VALUES, [uuidArrayLiteral(ids)], UUID_ARRAYS);
  }

  /** Assignee and label ids of work items (one statement), each list sorted. */
  async sets(ids: string[]): Promise<{ assignees: Map<string, string[]>; labels: Map<string, string[]> }> {
    const assignees = new Map<string, string[]>();
    const labels = new Map<string, string[]>();
    for (const r of await hotQuery(this.dataSource, SQL_ISSUE_SETS, [uuidArrayLiteral(ids)])) {
      const m = r.k === 'a' ? assignees : labels;
      const list = m.get(r.issue_id);
      if (list) list.push(r.v);
      else m.set(r.issue_id, [r.v]);
    }
    for (const v of assignees.values()) v.sort();
    for (const v of labels.values()) v.sort();
    return { assignees, labels };
  }

  /** The visible direct sub-items of a work item, oldest first. */
  subItems(issueId: string): Promise<Issue[]> {
    return this.dataSource
      .getRepository(Issue)
      .createQueryBuilder('i')
      .innerJoin('Project', 'p', `p.id = i.project_id AND ${LIVE_PROJECT}`)
      .where(`i.parent_id = :issueId AND ${OPEN_ISSUE}`, { issueId })
      .orderBy('i.createdAt', 'ASC')
      .addOrderBy('i.id', 'ASC')
      .getMany();
  }

  // ---- reads: one work item ------------------------------------------------------------------

  /** One visible work item of the project with its assignee and label ids (one statement), or undefined. */
  async findVisibleRow(projectId: string, issueId: string): Promise<Row | undefined> {
    const [row] = await hotRead(this.dataSource, SQL_VISIBLE_ISSUE, [projectId, issueId], ISO_TIMES);
    return row;
  }

  /** A visible work item of the project (`guestViewerId`: under the Guest rule), or null. */
  findVisible(
    projectId: string,
    issueId: string,
    em: EntityManager = this.dataSource.manager,
    guestViewerId?: string,
  ): Promise<Issue | null> {
    const qb = visibleIssuesQuery(em).andWhere('i.id = :issueId AND i.projectId = :projectId', { issueId, projectId });
    if (guestViewerId !== undefined) this.guest(qb, guestViewerId);
    return qb.getOne();
  }

  /**
   * A work item of the project that is not archived and not a draft, in a live, unarchived project
   * (`guestViewerId`: under the Guest rule), or null: what comments, links and the history hang on.
   * `orArchived`: an archived one too (the history of an archived work item, as Plane reads it).
   */
  findOpen(
    em: EntityManager,
    projectId: string,
    issueId: string,
    guestViewerId?: string,
    orArchived = false,
  ): Promise<Issue | null> {
    const qb = em
      .getRepository(Issue)
      .createQueryBuilder('i')
      .innerJoin('Project', 'p', `p.id = i.project_id AND ${LIVE_PROJECT}`)
      .where(`i.id = :issueId AND i.project_id = :projectId AND ${orArchived ? 'i.is_draft = false' : OPEN_ISSUE}`, {
        issueId,
        projectId,
      });
    if (guestViewerId !== undefined) this.guest(qb, guestViewerId);
    return qb.getOne();
  }

  /** The visible work item `IDENT-seq` of the workspace in a project `userId` is an active member of, or null. */
  findVisibleByKey(workspaceId: string, userId: string, identifier: string, sequenceId: number): Promise<Issue | null> {
    return visibleIssuesQuery(this.dataSource.manager)
      .innerJoin(
        'ProjectMember',
        'pm',
        'pm.projectId = p.id AND pm.memberId = :userId AND pm.isActive = true AND pm.deletedAt IS NULL',
        { userId },
      )
      .andWhere('p.workspaceId = :workspaceId AND p.identifier = :identifier AND i.sequenceId = :seq', {
        workspaceId,
        identifier,
        seq: sequenceId,
      })
      .getOne();
  }

  /** The caller's active role in the project, or undefined. */
  async activeRole(projectId: string, userId: string): Promise<number | undefined> {
    const [member] = await this.dataSource.query(
      'SELECT role FROM project_members WHERE project_id = $1 AND member_id = $2 AND is_active = true AND deleted_at IS NULL LIMIT 1',
      [projectId, userId],
    );
    return member ? Number(member.role) : undefined;
  }

  /**
   * Visible work items of the projects `userId` is an active member of (one project with
   * `projectId`) whose name contains `q`, or whose key or number is `q`, ranked (`issueSearch`), at
   * most `limit`. With `batch`, sent in it (the search room's `search/` gathers its kinds' statements).
   */
  async search(
    workspaceId: string,
    userId: string,
    q: string,
    projectId: string | undefined,
    limit: number,
    batch?: ReadBatch,
  ): Promise<IssueSearchHit[]> {
    const walk = this.searchWalks(q, limit);
    const { text, values } = issueSearch({
      workspaceId,
      userId,
      projectId,
      q,
      walk: typeof walk === 'boolean' ? walk : await walk,
      exact: q ? exactIssueKey(q) : undefined,
      columns: `i.id, i.name, i.sequence_id, sp.identifier AS project__identifier, i.project_id, sp.slug AS workspace__slug`,
      limit,
    });
    const rows = (await (batch
      ? batch.query(this.dataSource, text, values)
      : hotQuery(this.dataSource, text, values))) as IssueSearchHit[];
    return rows.map((r) => ({ ...r, sequence_id: Number(r.sequence_id) }));
  }

  /**
   * The work item picker (the search room's `search-issues/`): visible work items of the caller's
   * projects of the workspace (the project `projectId` unless it is undefined) whose name contains
   * `q` or whose key or number is `q`, without the `exclude`d ones; ranked (`issueSearch`), at most
   * `limit`. Rows as the picker answers them (the state's name, group and colour joined by name).
   */
  async pickerRows(
    workspaceId: string,
    projectId: string | undefined,
    userId: string,
    q: string,
    exclude: PickerExclusions,
    limit: number,
  ): Promise<Array<Record<string, unknown>>> {
    const walk = this.searchWalks(q, limit);
    const { text, values } = issueSearch({
      workspaceId,
      userId,
      projectId,
      q,
      walk: typeof walk === 'boolean' ? walk : await walk,
      exact: q ? exactIssueKey(q) : undefined,
      exclude,
      columns: `i.name, i.id, i.start_date, i.sequence_id, sp.name AS project__name, sp.identifier AS project__identifier,
i.project_id, sp.slug AS workspace__slug, s.name AS state__name, s."group" AS state__group, s.color AS state__color`,
      withState: true,
      limit,
    });
    return hotQuery(this.dataSource, text, values);
  }

  /**
   * Work items to mention (the search room's `entity-search/`): visible ones of `userId`'s projects
   * of the workspace (the one project with `projectId`), under the Guest rule per project; `q` in
   * the name or the project identifier, or a number in `q` as the sequence id (Plane's
   * `re.findall(r"\b\d+\b")`); ranked (`issueSearch`), at most `limit`. With `batch`, sent in it.
   */
  async mentionable(
    scope: { workspaceId: string; userId: string; projectId?: string },
    q: string,
    limit: number,
    batch?: ReadBatch,
  ): Promise<unknown[]> {
    const numbers = [...new Set((q.match(/\b\d+\b/g) ?? []).filter((n) => n.length <= 9).map(Number))];
    const walk = this.searchWalks(q, limit);
    const { text, values } = issueSearch({
      ...scope,
      q,
      walk: typeof walk === 'boolean' ? walk : await walk,
      exact: { sequences: numbers },
      guestRule: true,
      projectIdentifier: true,
      columns: `i.name, i.id, i.sequence_id, sp.identifier AS project__identifier, i.project_id, i.priority,
i.state_id, i.type_id`,
      limit,
    });
    const rows = await (batch ? batch.query(this.dataSource, text, values) : hotQuery(this.dataSource, text, values));
    return rows.map((r) => ({ ...r, sequence_id: Number(r.sequence_id) }));
  }

  // ---- reads: what hangs off a work item -----------------------------------------------------

  /**
   * The work item's comments, newest first: a page (its light rows, `page`) or, with `page.all`,
   * every comment (`page` null); the comments themselves in chunks of bounded size (`pageInChunks`).
   */
  commentPageChunks(
    issueId: string,
    page: PageRequest,
  ): Promise<{ page: Page<IssueComment> | null; chunks: AsyncGenerator<IssueComment[]> }> {
    const qb = this.dataSource
      .getRepository(IssueComment)
      .createQueryBuilder('c')
      .where('c.issueId = :issueId', { issueId });
    return pageInChunks(qb, page, { order: 'DESC', weight: COMMENT_WEIGHT });
  }

  /** The live reactions on these comments, oldest first (one statement for an App API page of comments). */
  async commentReactions(commentIds: string[]): Promise<CommentReaction[]> {
    if (!commentIds.length) return [];
    return this.dataSource
      .getRepository(CommentReaction)
      .find({ where: { commentId: In(commentIds) }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /**
   * Where the work item came from through intake (`source`, `source_email`, `extra` of its first
   * live intake row), or null: what the App API's comments and history rows show. The intake room
   * sits above this one: its table is read by name.
   */
  async intakeSourceOf(issueId: string): Promise<IntakeSource | null> {
    const rows = await this.dataSource.query<
      Array<{ source: string | null; source_email: string | null; extra: Record<string, unknown> | null }>
    >(
      `SELECT source, source_email, extra FROM intake_issues WHERE issue_id = $1 AND deleted_at IS NULL
        ORDER BY created_at LIMIT 1`,
      [issueId],
    );
    const row = rows[0];
    return row ? { source: row.source, source_email: row.source_email, extra: row.extra ?? {} } : null;
  }

  /**
   * The work item's history rows without the `hidden` fields, in `order` of creation (Plane's
   * `IssueActivityEndpoint`: oldest first), in chunks of bounded size (`readInChunks`); `after`:
   * only those created after it, to the millisecond (the precision the API shows).
   */
  historyRowChunks(
    issueId: string,
    hidden: string[],
    after: Date | null,
    order: 'ASC' | 'DESC',
    budget?: AnswerLender,
  ): AsyncGenerator<IssueActivity[]> {
    const qb = this.dataSource
      .getRepository(IssueActivity)
      .createQueryBuilder('a')
      .where('a.issueId = :issueId AND (a.field IS NULL OR a.field NOT IN (:...hidden))', { issueId, hidden });
    // created after `after` to the millisecond, as a range the (issue_id, created_at) index serves
    if (after) qb.andWhere('a.createdAt >= :next', { next: new Date(after.getTime() + 1) });
    return readInChunks(qb, { order, weight: ACTIVITY_WEIGHT, budget });
  }

  /** The work item's live comments, in `order` of creation, in chunks of bounded size; `after` as `historyRowChunks`. */
  commentChunks(
    issueId: string,
    after: Date | null,
    order: 'ASC' | 'DESC',
    budget?: AnswerLender,
  ): AsyncGenerator<IssueComment[]> {
    const qb = this.dataSource
      .getRepository(IssueComment)
      .createQueryBuilder('c')
      .where('c.issueId = :issueId', { issueId });
    // created after `after` to the millisecond, as a range the (issue_id, created_at) index serves
    if (after) qb.andWhere('c.createdAt >= :next', { next: new Date(after.getTime() + 1) });
    return readInChunks(qb, { order, weight: COMMENT_WEIGHT, budget });
  }

  /** A work item by id, deleted or not (a parent is shown as Plane's foreign key reads it), or null. */
  issueLite(id: string): Promise<Issue | null> {
    return this.dataSource.getRepository(Issue).findOne({ where: { id }, withDeleted: true });
  }

  /** A page of the work item's links, newest first. */
  linksPage(issueId: string, page: PageRequest): Promise<Page<IssueLink>> {
    const qb = this.dataSource
      .getRepository(IssueLink)
      .createQueryBuilder('l')
      .where('l.issueId = :issueId', { issueId });
    return paginate(qb, page, { order: 'DESC' });
  }

  /** A page of the work item's history without the entries of the `hidden` fields, as `commentPageChunks`. */
  activityPageChunks(
    issueId: string,
    hidden: string[],
    page: PageRequest,
    order: 'ASC' | 'DESC',
  ): Promise<{ page: Page<IssueActivity> | null; chunks: AsyncGenerator<IssueActivity[]> }> {
    const qb = this.dataSource
      .getRepository(IssueActivity)
      .createQueryBuilder('a')
      .where('a.issueId = :issueId AND (a.field IS NULL OR a.field NOT IN (:...hidden))', { issueId, hidden });
    return pageInChunks(qb, page, { order, weight: ACTIVITY_WEIGHT });
  }

  /** A page of the work item's reactions, oldest first. */
  issueReactionsPage(issueId: string, page: PageRequest): Promise<Page<IssueReaction>> {
    const qb = this.dataSource
      .getRepository(IssueReaction)
      .createQueryBuilder('r')
      .where('r.issueId = :issueId', { issueId });
    return paginate(qb, page);
  }

  /** A page of the comment's reactions, oldest first. */
  commentReactionsPage(commentId: string, page: PageRequest): Promise<Page<CommentReaction>> {
    const qb = this.dataSource
      .getRepository(CommentReaction)
      .createQueryBuilder('r')
      .where('r.commentId = :commentId', { commentId });
    return paginate(qb, page);
  }

  /** A comment of the project on a work item that is not deleted, archived or a draft, in a live, unarchived project; or null. */
  findCommentOnOpenIssue(em: EntityManager, projectId: string, commentId: string): Promise<IssueComment | null> {
    return em
      .getRepository(IssueComment)
      .createQueryBuilder('c')
      .innerJoin(Issue, 'i', `i.id = c.issue_id AND i.deleted_at IS NULL AND ${OPEN_ISSUE}`)
      .innerJoin('Project', 'p', `p.id = i.project_id AND ${LIVE_PROJECT}`)
      .where('c.id = :commentId AND c.projectId = :projectId AND i.projectId = :projectId', { commentId, projectId })
      .getOne();
  }

  // ---- writes --------------------------------------------------------------------------------

  /** Create's first read: the live project's `archived_at` and `default_assignee_id`, or undefined. */
  async projectForCreate(em: EntityManager, projectId: string): Promise<ProjectForCreate | undefined> {
    const [project] = await hotTxQuery(em, SQL_PROJECT_FOR_CREATE, [projectId]);
    return project as ProjectForCreate | undefined;
  }

  /** The project's default non-triage state for a create (`{id, group, name}`), else its first non-triage state, else null. */
  async defaultStateForCreate(
    em: EntityManager,
    projectId: string,
  ): Promise<{ id: string; group: string; name: string } | null> {
    return (
      ((await hotTxQuery(em, SQL_DEFAULT_STATE, [projectId]))[0] as
        { id: string; group: string; name: string } | undefined) ?? null
    );
  }

  /**
   * Writes one work item in `em`'s transaction (see `SQL_CREATE_ISSUE`; `values` its `$1`–`$23`):
   * the counter upsert, which locks the project's counter row until the commit, then the create
   * statement, sent together. Answers the row (the work item's columns and `activity_id`).
   */
  async insertOne(em: EntityManager, projectId: string, values: unknown[], stateless: boolean): Promise<Row> {
    const [, [row]] = await hotTxPipeline(em, [
      [SQL_NEXT_SEQUENCE, [projectId, visibleOnCreate(values)]],
      [stateless ? SQL_CREATE_ISSUE_NO_STATE : SQL_CREATE_ISSUE, values],
    ]);
    return row;
  }

  /**
   * One transaction of its own for a batch of creates (`IssueCreateBatcher`): the counter takes
   * `jobs.length` numbers, then one statement per work item in order. Answers their rows.
   */
  async insertBatch(projectId: string, jobs: Array<{ values: unknown[]; stateless: boolean }>): Promise<Row[]> {
    const n = jobs.length;
    const tallies = talliesOfBatch(jobs);
    const answers = await hotTransaction(this.dataSource, [
      [SQL_NEXT_SEQUENCES, [projectId, n, jobs.reduce((sum, job) => sum + visibleOnCreate(job.values), 0)]],
      // several tally keys: their rows locked first, in key order (`SQL_LOCK_TALLIES`)
      ...(tallies ? [[SQL_LOCK_TALLIES, [jobs[0].values[0], projectId, ...tallies]] as [string, unknown[]]] : []),
      ...jobs.map((job, k): [string, unknown[]] => [
        job.stateless ? SQL_CREATE_ISSUE_IN_BATCH_NO_STATE : SQL_CREATE_ISSUE_IN_BATCH,
        [...job.values, n - 1 - k],
      ]),
    ]);
    return answers.slice(tallies ? 2 : 1).map(([row]) => row);
  }

  /** The work item of the project, locked (`FOR UPDATE`) until `em`'s transaction ends; or null. */
  lockInProject(em: EntityManager, projectId: string, issueId: string): Promise<Issue | null> {
    return em
      .getRepository(Issue)
      .createQueryBuilder('i')
      .setLock('pessimistic_write')
      .where('i.id = :issueId AND i.projectId = :projectId', { issueId, projectId })
      .getOne();
  }

  /**
   * A live work item of the workspace in a live project that is `projectId` or one `userId` is an
   * active member of (a parent the caller can reach), or null.
   */
  findReachable(
    em: EntityManager,
    workspaceId: string,
    projectId: string,
    userId: string,
    issueId: string,
  ): Promise<Issue | null> {
    return em
      .getRepository(Issue)
      .createQueryBuilder('i')
      .innerJoin('Project', 'p', 'p.id = i.projectId AND p.deletedAt IS NULL')
      .where('i.id = :parentId AND i.workspaceId = :workspaceId', { parentId: issueId, workspaceId })
      .andWhere(
        `(i.projectId = :projectId OR EXISTS (SELECT 1 FROM project_members pm WHERE pm.project_id = i.project_id
        AND pm.member_id = :userId AND pm.is_active = true AND pm.deleted_at IS NULL))`,
        { projectId, userId },
      )
      .getOne();
  }

  private guest(qb: SelectQueryBuilder<Issue>, viewerId: string): void {
    const params: Record<string, unknown> = {};
    qb.andWhere(guestCondition(viewerId, bindNamed(params, 'guest')), params);
  }

  /**
   * Records a description change as Plane's `issue_description_version_task` does, in the
   * change's transaction (only when the description changed): the latest version of the work item
   * is updated when `userId` owns it and saved it at most 600 seconds ago, else a version is added.
   * A work item without versions first gets one for its description before the change (`before`),
   * owned by its creator and saved at its creation, as Plane's create writes it.
   */
  async recordDescriptionVersion(
    em: EntityManager,
    issue: Issue,
    userId: string,
    before: { html: string; stripped: string | null },
    after: { html: string; stripped: string | null },
  ): Promise<void> {
    const repo = em.getRepository(IssueDescriptionVersion);
    let latest = await repo.findOne({
      where: { issueId: issue.id },
      order: { lastSavedAt: 'DESC', createdAt: 'DESC' },
    });
    const row = (owner: string, savedAt: Date, d: { html: string; stripped: string | null }) => ({
      workspaceId: issue.workspaceId,
      projectId: issue.projectId,
      issueId: issue.id,
      descriptionHtml: d.html,
      descriptionStripped: d.stripped,
      descriptionJson: {},
      lastSavedAt: savedAt,
      ownedById: owner,
      createdById: issue.createdById,
      updatedById: userId,
    });
    if (!latest && issue.createdById) {
      latest = await repo.save(repo.create(row(issue.createdById, issue.createdAt, before)));
    }
    const now = new Date();
    if (latest && latest.ownedById === userId && now.getTime() - latest.lastSavedAt.getTime() <= 600_000) {
      await repo.update(
        { id: latest.id },
        { descriptionHtml: after.html, descriptionStripped: after.stripped, lastSavedAt: now, updatedById: userId },
      );
    } else {
      await repo.insert(row(userId, now, after));
    }
  }

  /** One page (by number) of a work item's description versions, newest first, and their count. */
  async descriptionVersions(
    issueId: string,
    offset: number,
    limit: number,
  ): Promise<{ rows: IssueDescriptionVersion[]; total: number }> {
    const [rows, total] = await this.dataSource.getRepository(IssueDescriptionVersion).findAndCount({
      where: { issueId },
      order: { lastSavedAt: 'DESC', id: 'DESC' },
      skip: offset,
      take: limit,
    });
    return { rows, total };
  }

  /** A description version of the work item, else null. */
  descriptionVersion(issueId: string, versionId: string): Promise<IssueDescriptionVersion | null> {
    return this.dataSource.getRepository(IssueDescriptionVersion).findOne({ where: { id: versionId, issueId } });
  }

  // ---- rows by id and the services' small writes (in the caller's transaction) --------------

  /** The DataSource's manager, for reads outside a transaction. */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /** The live work item `id` (any project, archived and drafts too), or null. */
  issueById(em: EntityManager, id: string): Promise<Issue | null> {
    return em.getRepository(Issue).findOne({ where: { id } });
  }

  /** The work item `id`, deleted or not, or null. */
  issueWithDeleted(em: EntityManager, id: string): Promise<Issue | null> {
    return em.getRepository(Issue).findOne({ where: { id }, withDeleted: true });
  }

  /** The live work item `id` of the project (archived and drafts too), without a lock; or null. */
  issueInProject(em: EntityManager, projectId: string, id: string): Promise<Issue | null> {
    return em.getRepository(Issue).findOne({ where: { id, projectId } });
  }

  /** The live work items with these ids, in no particular order. */
  issuesByIds(ids: string[]): Promise<Issue[]> {
    return this.dataSource.getRepository(Issue).findBy({ id: In(ids) });
  }

  /** The live work items of the project among `ids` (archived and drafts too). */
  issuesInProject(em: EntityManager, projectId: string, ids: string[]): Promise<Issue[]> {
    return em.getRepository(Issue).find({ where: { id: In(ids), projectId } });
  }

  /**
   * A page of the project's non-archived, non-draft work items linked to the cycle or module
   * `link.id` (a live row of `link.table`: the cycle and module rooms sit above this one, so their
   * link table is read by name), by creation time (`order`), through the keyset paginator.
   */
  linkedIssuesPage(projectId: string, link: PlanningLinkScope, page: PageRequest, order: 'ASC' | 'DESC') {
    const qb = this.dataSource
      .getRepository(Issue)
      .createQueryBuilder('i')
      .innerJoin(link.table, 'l', `l.issue_id = i.id AND l.${link.column} = :ownerId AND l.deleted_at IS NULL`, {
        ownerId: link.id,
      })
      .where('i.projectId = :projectId AND i.archivedAt IS NULL AND i.isDraft = false', { projectId });
    return paginate(qb, page, { order });
  }

  /** The number of live sub-items of each of `ids` (work items without any are absent). */
  async subItemCounts(em: EntityManager, ids: string[]): Promise<Map<string, number>> {
    const rows: Array<{ id: string; n: number | string }> = await em.query(
      `SELECT parent_id AS id, COUNT(*) AS n FROM issues WHERE deleted_at IS NULL AND parent_id = ANY($1::uuid[]) GROUP BY parent_id`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, Number(r.n)]));
  }

  /** Which of `ids` are live work items whose state's group is one of `groups`, or that have no state (in no order). */
  async idsInStateGroupsOrNone(em: EntityManager, ids: string[], groups: string[]): Promise<string[]> {
    const rows: Array<{ id: string }> = await em.query(
      `SELECT i.id FROM issues i LEFT JOIN states s ON s.id = i.state_id
        WHERE i.id = ANY($1::uuid[]) AND i.deleted_at IS NULL AND (s.id IS NULL OR s."group" = ANY($2::text[]))`,
      [ids, groups],
    );
    return rows.map((r) => r.id);
  }

  /**
   * The ids among `ids` of the project's live work items (archived and drafts too), each row locked
   * (`FOR UPDATE`) until `em`'s transaction ends, taken in id order: a transaction that changes
   * several work items one statement at a time locks them all here first, so two of them over
   * the same work items never wait for each other's rows in a cycle (PostgreSQL would abort one,
   * SQLSTATE 40P01). Answered in id order.
   */
  async lockIdsInProject(em: EntityManager, projectId: string, ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows: Array<{ id: string }> = await em.query(
      'SELECT i.id FROM issues i WHERE i.project_id = $1 AND i.id = ANY($2::uuid[]) AND i.deleted_at IS NULL ORDER BY i.id FOR UPDATE',
      [projectId, ids],
    );
    return rows.map((r) => r.id);
  }

  /** The live work item of the project holding this external id and source (all columns), or null. */
  findByExternalId(projectId: string, externalId: string, externalSource: string): Promise<Issue | null> {
    return this.dataSource.getRepository(Issue).findOne({ where: { projectId, externalId, externalSource } });
  }

  /** `findByExternalId`'s id only, or null. */
  async idByExternalId(projectId: string, externalId: string, externalSource: string): Promise<string | null> {
    const holder = await this.dataSource.getRepository(Issue).findOne({
      where: { projectId, externalId, externalSource },
      select: { id: true },
    });
    return holder?.id ?? null;
  }

  /** The live work items holding one of these estimate points. */
  issuesWithEstimatePoints(em: EntityManager, pointIds: string[]): Promise<Issue[]> {
    return em.getRepository(Issue).find({ where: { estimatePointId: In(pointIds) } });
  }

  /** Writes `patch` to the work item `id` (a soft delete with `deletedAt`). */
  async updateIssue(em: EntityManager, id: string, patch: Partial<Issue>): Promise<void> {
    await em.update(Issue, { id }, patch as never);
  }

  /** Writes `patch` to the work items with these ids. */
  async updateIssues(em: EntityManager, ids: string[], patch: Partial<Issue>): Promise<void> {
    await em.update(Issue, { id: In(ids) }, patch as never);
  }

  /** Archives the work items on `day` (`YYYY-MM-DD`); `updated_at` moves, so the web app's delta sync sees it. */
  async archiveOn(em: EntityManager, ids: string[], day: string): Promise<void> {
    await em.query('UPDATE issues SET archived_at = $2::date, updated_at = now() WHERE id = ANY($1::uuid[])', [
      ids,
      day,
    ]);
  }

  /** Moves the work items to `state` (`completed_at` set when it is a completed state, as a state change does). */
  async setStateOf(em: EntityManager, ids: string[], state: { id: string; group: string }): Promise<void> {
    await em.query(
      `UPDATE issues SET state_id = $2, updated_at = now(),
         completed_at = CASE WHEN $3 = 'completed' THEN now() ELSE NULL END
       WHERE id = ANY($1::uuid[])`,
      [ids, state.id, state.group],
    );
  }

  /** The sub-items of `parentId` (live ones) lose their parent. */
  async detachSubItems(em: EntityManager, parentId: string): Promise<void> {
    await em.update(Issue, { parentId }, { parentId: null });
  }

  /** The user ids (`assigneeId`) or label ids (`labelId`) of the work item's assignee or label set. */
  async setOf<T extends IssueAssignee | IssueLabel>(
    em: EntityManager,
    entity: new () => T,
    column: 'assigneeId' | 'labelId',
    issueId: string,
  ): Promise<string[]> {
    const rows = await em.getRepository(entity).find({ where: { issueId } as never });
    return rows.map((r) => (r as unknown as Record<string, string>)[column]);
  }

  /** Adds (`insert`) or removes (`delete`) these ids of the work item's assignee or label set. */
  async changeSet<T extends IssueAssignee | IssueLabel>(
    em: EntityManager,
    entity: new () => T,
    column: 'assigneeId' | 'labelId',
    issueId: string,
    change: { added: string[]; removed: string[] },
  ): Promise<void> {
    const { added, removed } = change;
    if (removed.length) await em.delete(entity, { issueId, [column]: In(removed) } as never);
    if (added.length) await em.insert(entity, added.map((id) => ({ issueId, [column]: id })) as never);
  }

  /** The work items among `ids`, deleted ones too (a parent as `expand=parent` shows it); none for an empty list. */
  async issuesWithDeleted(ids: string[]): Promise<Issue[]> {
    if (!ids.length) return [];
    return this.dataSource.getRepository(Issue).find({ where: { id: In(ids) }, withDeleted: true });
  }

  // ---- comments, links, history rows, reactions ----------------------------------------------

  /** Inserts a comment (an entity built by the caller); the saved row. */
  insertComment(em: EntityManager, comment: IssueComment): Promise<IssueComment> {
    return em.save(comment);
  }

  /** Writes `patch` to the comment `id`. */
  async updateComment(em: EntityManager, id: string, patch: Partial<IssueComment>): Promise<void> {
    await em.update(IssueComment, { id }, patch as never);
  }

  /** The comment `id`, deleted or not, or null. */
  commentWithDeleted(em: EntityManager, id: string): Promise<IssueComment | null> {
    return em.getRepository(IssueComment).findOne({ where: { id }, withDeleted: true });
  }

  /** The live comment `id`, or null. */
  commentById(em: EntityManager, id: string): Promise<IssueComment | null> {
    return em.getRepository(IssueComment).findOne({ where: { id } });
  }

  /** The live comment `id` of the work item, or null. */
  commentOfIssue(em: EntityManager, issueId: string, id: string): Promise<IssueComment | null> {
    return em.getRepository(IssueComment).findOne({ where: { id, issueId } });
  }

  /** Inserts a link (an entity built by the caller); the saved row. */
  insertLink(em: EntityManager, link: IssueLink): Promise<IssueLink> {
    return em.save(link);
  }

  /** Writes `patch` to the link `id`. */
  async updateLink(em: EntityManager, id: string, patch: Partial<IssueLink>): Promise<void> {
    await em.update(IssueLink, { id }, patch as never);
  }

  /** The live link `id`, or null. */
  linkById(em: EntityManager, id: string): Promise<IssueLink | null> {
    return em.getRepository(IssueLink).findOne({ where: { id } });
  }

  /** The live link `id` of the work item, or null. */
  linkOfIssue(em: EntityManager, issueId: string, id: string): Promise<IssueLink | null> {
    return em.getRepository(IssueLink).findOne({ where: { id, issueId } });
  }

  /** A live link of the work item with this URL other than `exceptId`, or null. */
  linkWithUrl(em: EntityManager, issueId: string, url: string, exceptId?: string): Promise<IssueLink | null> {
    return em.getRepository(IssueLink).findOne({ where: { issueId, url, ...(exceptId ? { id: Not(exceptId) } : {}) } });
  }

  /** The history row `id` of the work item in the project, or null. */
  activityOf(projectId: string, issueId: string, id: string): Promise<IssueActivity | null> {
    return this.dataSource.getRepository(IssueActivity).findOne({ where: { id, issueId, projectId } });
  }

  /** The live reaction of `entity` matching `where` (target, actor, emoji), or null. */
  findReaction<T extends IssueReaction | CommentReaction>(
    em: EntityManager,
    entity: new () => T,
    where: Record<string, string>,
  ): Promise<T | null> {
    return em.getRepository(entity).findOneBy(where as never);
  }

  /** Inserts a reaction row of `entity` with these columns; the saved row. */
  async insertReaction<T extends IssueReaction | CommentReaction>(
    em: EntityManager,
    entity: new () => T,
    values: Record<string, unknown>,
  ): Promise<T> {
    return (await em.save(em.getRepository(entity).create(values as never))) as unknown as T;
  }

  /** Soft-deletes the reaction `id` of `entity` (deleted now, by `userId`). */
  async softDeleteReaction<T extends IssueReaction | CommentReaction>(
    em: EntityManager,
    entity: new () => T,
    id: string,
    userId: string,
  ): Promise<void> {
    await em.getRepository(entity).update({ id } as never, { deletedAt: new Date(), updatedById: userId } as never);
  }

  // ---- the published boards (the deploy-board room, through the issue door's services)

  /** A page of the project's work items a board shows (`boardVisible`) with the filters, in `order`. */
  boardIssuesPage(
    projectId: string,
    filters: BoardIssueFilters,
    page: PageRequest,
    order: BoardIssueOrder,
  ): Promise<Page<Issue>> {
    const qb = this.boardVisible(this.dataSource.manager, projectId);
    if (filters.state?.length) qb.andWhere('i.stateId IN (:...states)', { states: filters.state });
    if (filters.state_group?.length) qb.andWhere('s.group IN (:...groups)', { groups: filters.state_group });
    if (filters.priority?.length) qb.andWhere('i.priority IN (:...priorities)', { priorities: filters.priority });
    if (filters.labels?.length) {
      qb.andWhere('EXISTS (SELECT 1 FROM issue_labels il WHERE il.issue_id = i.id AND il.label_id IN (:...labels))', {
        labels: filters.labels,
      });
    }
    if (filters.assignees?.length) {
      qb.andWhere(
        'EXISTS (SELECT 1 FROM issue_assignees ia WHERE ia.issue_id = i.id AND ia.assignee_id IN (:...assignees))',
        { assignees: filters.assignees },
      );
    }
    return paginate(qb, page, order);
  }

  /** The work item `issueId` of the project if a board shows it (locked `FOR UPDATE` when `lock`), or null. */
  boardIssue(em: EntityManager, projectId: string, issueId: string, lock = false): Promise<Issue | null> {
    const qb = this.boardVisible(em, projectId).andWhere('i.id = :issueId', { issueId });
    if (lock) qb.setLock('pessimistic_write', undefined, ['i']);
    return qb.getOne();
  }

  /** What a board shows of a project's work items: `VISIBLE_ISSUE` and not in a triage state (alias `s`). */
  private boardVisible(em: EntityManager, projectId: string): SelectQueryBuilder<Issue> {
    return em
      .getRepository(Issue)
      .createQueryBuilder('i')
      .leftJoin('State', 's', 's.id = i.stateId')
      .where('i.projectId = :projectId', { projectId })
      .andWhere(`(s.id IS NULL OR (s.is_triage = false AND s."group" <> 'triage'))`)
      .andWhere(VISIBLE_ISSUE);
  }

  /** The live assignee and label links, votes and reactions (oldest first) of these work items: one statement each. */
  async boardRows(ids: string[]) {
    const repo = <T extends object>(e: new () => T) => this.dataSource.getRepository(e);
    const [assignees, labels, votes, reactions] = await Promise.all([
      repo(IssueAssignee).findBy({ issueId: In(ids) }),
      repo(IssueLabel).findBy({ issueId: In(ids) }),
      repo(IssueVote).find({ where: { issueId: In(ids) }, order: { createdAt: 'ASC', id: 'ASC' } }),
      repo(IssueReaction).find({ where: { issueId: In(ids) }, order: { createdAt: 'ASC', id: 'ASC' } }),
    ]);
    return { assignees, labels, votes, reactions };
  }

  /** The work item's EXTERNAL comments in the project, oldest first. */
  externalComments(projectId: string, issueId: string): Promise<IssueComment[]> {
    return this.dataSource
      .getRepository(IssueComment)
      .find({ where: { issueId, projectId, access: 'EXTERNAL' }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The live EXTERNAL comment `id` of the project (of `issueId` and by `actorId` when given), or null. */
  externalComment(
    em: EntityManager,
    projectId: string,
    id: string,
    of: { issueId?: string; actorId?: string },
  ): Promise<IssueComment | null> {
    return em.getRepository(IssueComment).findOneBy({ id, projectId, access: 'EXTERNAL', ...of });
  }

  /** The work item's live reactions, oldest first (unpaginated). */
  issueReactions(issueId: string): Promise<IssueReaction[]> {
    return this.dataSource
      .getRepository(IssueReaction)
      .find({ where: { issueId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The comment's live reactions, newest first (unpaginated; Plane's order on a board). */
  commentReactionsNewestFirst(commentId: string): Promise<CommentReaction[]> {
    return this.dataSource
      .getRepository(CommentReaction)
      .find({ where: { commentId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** The work item's live votes, oldest first. */
  votes(issueId: string): Promise<IssueVote[]> {
    return this.dataSource
      .getRepository(IssueVote)
      .find({ where: { issueId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The user's live vote on the work item, or null. */
  findVote(em: EntityManager, issueId: string, actorId: string): Promise<IssueVote | null> {
    return em.getRepository(IssueVote).findOneBy({ issueId, actorId });
  }

  /** The live vote `id`; throws when it is gone. */
  voteById(em: EntityManager, id: string): Promise<IssueVote> {
    return em.getRepository(IssueVote).findOneByOrFail({ id });
  }

  /** Inserts a vote (an entity built by the caller); the saved row. */
  insertVote(em: EntityManager, row: IssueVote): Promise<IssueVote> {
    return em.save(row);
  }

  /** Writes `patch` to the vote `id` (a soft delete with `deletedAt`). */
  async updateVote(em: EntityManager, id: string, patch: Partial<IssueVote>): Promise<void> {
    await em.update(IssueVote, { id }, patch as never);
  }

  /** The user ids assigned to the work item (its live assignee links). */
  async assigneeIdsOf(em: EntityManager, issueId: string): Promise<string[]> {
    return (await em.getRepository(IssueAssignee).find({ where: { issueId } })).map((a) => a.assigneeId);
  }

  /** The label ids of the work item (its live `issue_labels` rows). */
  async labelIdsOf(em: EntityManager, issueId: string): Promise<string[]> {
    return (await em.getRepository(IssueLabel).find({ where: { issueId } })).map((l) => l.labelId);
  }

  // ---- reads for the rooms above: relations and attachments

  /**
   * The live, non-draft work item of the project (archived ones too), if the project is live
   * (archived or not); with `guestViewerId`, only one that Guest may see (`guestCondition`); else null.
   */
  findNonDraft(em: EntityManager, projectId: string, issueId: string, guestViewerId?: string): Promise<Issue | null> {
    const qb = em
      .getRepository(Issue)
      .createQueryBuilder('i')
      .innerJoin('Project', 'p', 'p.id = i.projectId AND p.deletedAt IS NULL')
      .where('i.id = :issueId AND i.projectId = :projectId AND i.isDraft = false', { issueId, projectId });
    if (guestViewerId !== undefined) this.guest(qb, guestViewerId);
    return qb.getOne();
  }

  /**
   * The live work items among `ids` (archived and drafts too) in live, unarchived projects that are
   * `projectId` or one `userId` is an active member of.
   */
  issuesInReach(userId: string, projectId: string, ids: string[]): Promise<Issue[]> {
    return this.dataSource
      .getRepository(Issue)
      .createQueryBuilder('i')
      .innerJoin('Project', 'p', 'p.id = i.projectId AND p.deletedAt IS NULL AND p.archivedAt IS NULL')
      .where('i.id IN (:...all)', { all: ids })
      .andWhere(
        `(i.projectId = :projectId OR EXISTS (SELECT 1 FROM project_members pm WHERE pm.project_id = i.project_id
        AND pm.member_id = :userId AND pm.is_active = true AND pm.deleted_at IS NULL))`,
        { projectId, userId },
      )
      .getMany();
  }

  /**
   * The live, unarchived, non-draft work items of the workspace among `ids`, in live, unarchived
   * projects `userId` is an active member of.
   */
  openIssuesOfMember(em: EntityManager, workspaceId: string, userId: string, ids: string[]): Promise<Issue[]> {
    return em
      .getRepository(Issue)
      .createQueryBuilder('i')
      .innerJoin('Project', 'p', 'p.id = i.projectId AND p.deletedAt IS NULL AND p.archivedAt IS NULL')
      .innerJoin(
        'ProjectMember',
        'm',
        'm.projectId = p.id AND m.memberId = :userId AND m.isActive = true AND m.deletedAt IS NULL',
        { userId },
      )
      .where('i.id IN (:...ids) AND i.workspaceId = :ws AND i.archivedAt IS NULL AND i.isDraft = false', {
        ids,
        ws: workspaceId,
      })
      .getMany();
  }

  /** Which of `ids` are live, unarchived work items (drafts too). */
  async liveUnarchivedIds(em: EntityManager, ids: string[]): Promise<string[]> {
    const rows = await em
      .getRepository(Issue)
      .find({ where: { id: In(ids), archivedAt: IsNull() }, select: { id: true } });
    return rows.map((r) => r.id);
  }

  /** The project, its identifier and the sequence id of each work item among `ids` (deleted ones too). */
  issueKeys(
    em: EntityManager,
    ids: string[],
  ): Promise<Array<{ id: string; projectId: string; identifier: string; seq: number }>> {
    return em
      .getRepository(Issue)
      .createQueryBuilder('i')
      .innerJoin('Project', 'p', 'p.id = i.projectId')
      .select(['i.id AS id', 'i.project_id AS "projectId"', 'p.identifier AS identifier', 'i.sequence_id AS seq'])
      .where('i.id IN (:...ids)', { ids })
      .withDeleted()
      .getRawMany<{ id: string; projectId: string; identifier: string; seq: number }>();
  }

  /** The live comment `id` of the project (on any work item of it), or null. */
  commentInProject(em: EntityManager, projectId: string, id: string): Promise<IssueComment | null> {
    return em.getRepository(IssueComment).findOne({ where: { id, projectId } });
  }

  // ---- reads for the rooms above: a user's history (the profile pages, through IssueQueryService)

  /** A page of `actorId`'s history rows (see `actorActivities`), newest first (`asc`: oldest first). */
  actorActivityPage(
    actorId: string,
    exceptFields: string[],
    page: PageRequest,
    asc: boolean,
    scope?: ActorActivityScope,
  ): Promise<Page<IssueActivity>> {
    return paginate(this.actorActivities(actorId, exceptFields, scope), page, { order: asc ? 'ASC' : 'DESC' });
  }

  /** `actorId`'s history rows of one UTC day (`YYYY-MM-DD`, see `actorActivities`), newest first, at most `limit`. */
  actorActivitiesOn(
    actorId: string,
    exceptFields: string[],
    day: string,
    limit: number,
    scope: ActorActivityScope,
  ): Promise<IssueActivity[]> {
    return this.actorActivities(actorId, exceptFields, scope)
      .andWhere(`(a.createdAt AT TIME ZONE 'UTC')::date = :day::date`, { day })
      .orderBy('a.createdAt', 'DESC')
      .addOrderBy('a.id', 'DESC')
      .take(limit)
      .getMany();
  }

  /**
   * `actorId`'s history rows whose field is none of `exceptFields` (rows without a field kept);
   * with `scope`, only those of that workspace's live, unarchived projects `viewerId` is an active
   * member of (and of `projectIds` when given): the project room's tables, read by name in the
   * statement's `EXISTS`.
   */
  private actorActivities(
    actorId: string,
    exceptFields: string[],
    scope?: ActorActivityScope,
  ): SelectQueryBuilder<IssueActivity> {
    const qb = this.dataSource
      .getRepository(IssueActivity)
      .createQueryBuilder('a')
      .where('a.actorId = :actorId AND (a.field IS NULL OR a.field NOT IN (:...hidden))', {
        actorId,
        hidden: exceptFields,
      });
    if (scope) {
      qb.andWhere('a.workspaceId = :workspaceId', { workspaceId: scope.workspaceId }).andWhere(
        `EXISTS (SELECT 1 FROM project_members pm JOIN projects ap ON ap.id = pm.project_id AND ap.deleted_at IS NULL
           AND ap.archived_at IS NULL WHERE pm.project_id = a.project_id AND pm.member_id = :viewerId
           AND pm.is_active = true AND pm.deleted_at IS NULL)`,
        { viewerId: scope.viewerId },
      );
      if (scope.projectIds?.length) qb.andWhere('a.projectId IN (:...projectIds)', { projectIds: scope.projectIds });
    }
    return qb;
  }

  // ---- the import's dedupe reads (through IssueQueryService)

  /** `external_id` → id of the project's live work items (`issue`) or comments (`comment`) that came from `source`. */
  externalIds(
    kind: 'issue' | 'comment',
    projectId: string,
    source: string,
    em: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, string>> {
    return externalIdMap(em, kind === 'issue' ? Issue : IssueComment, 'project_id', projectId, source);
  }

  /** The natural keys of the project's live links: work item and url. */
  async linkKeysOfProject(
    projectId: string,
    em: EntityManager = this.dataSource.manager,
  ): Promise<Array<{ issueId: string; url: string }>> {
    const rows = await em
      .createQueryBuilder()
      .select(['l.issue_id AS issue_id', 'l.url AS url'])
      .from(IssueLink, 'l')
      .where('l.project_id = :projectId AND l.deleted_at IS NULL', { projectId })
      .getRawMany<{ issue_id: string; url: string }>();
    return rows.map((r) => ({ issueId: r.issue_id, url: r.url }));
  }
}

/**
 * The tally keys (`project_issue_tallies`) of a batch's visible work items as `SQL_LOCK_TALLIES`'
 * `$3`–`$5` (states, priorities, creators; `values` `$7`, `$6`, `$18` of `SQL_CREATE_ISSUE`), each
 * once; undefined when they are fewer than two (one row: no order to keep).
 */
function talliesOfBatch(
  jobs: Array<{ values: unknown[] }>,
): [Array<string | null>, string[], Array<string | null>] | undefined {
  const keys = new Map<string, [string | null, string, string | null]>();
  for (const { values } of jobs) {
    if (!visibleOnCreate(values)) continue;
    const key: [string | null, string, string | null] = [
      (values[6] as string | null) ?? null,
      values[5] as string,
      (values[17] as string | null) ?? null,
    ];
    keys.set(JSON.stringify(key), key);
  }
  if (keys.size < 2) return undefined;
  const all = [...keys.values()];
  return [all.map((k) => k[0]), all.map((k) => k[1]), all.map((k) => k[2])];
}

/** 1 when a create's `values` (`$1`–`$23` of `SQL_CREATE_ISSUE`) make a visible work item (`$14` is_draft false), else 0. */
function visibleOnCreate(values: unknown[]): number {
  return values[13] === true ? 0 : 1;
}

/**
 * The visible work items of the scope (a project: `SQL_VISIBLE_ISSUES_OF_PROJECT`, `$1` its id; the
 * caller's projects of a workspace: `SQL_VISIBLE_ISSUES_OF_WORKSPACE`, `$1` the workspace, `$2` the
 * caller) with the filters and the group's condition, as `FROM … WHERE …` and its values; how many
 * conditions the filters and the group added (none: the whole list, which the counters count).
 * With `byCreation` (a page in creation order), the work items of one assignee or one label (the
 * group's, else the filter's: `creationRows`) are reached from that value's rows `ga`, which the
 * page then orders by (`rows` says which table).
 */
function visibleSql(
  scope: IssueScope,
  filters: IssueFilterSet,
  group?: IssueGroup,
  byCreation = false,
): { from: string; params: unknown[]; conditions: number; rows?: CreationRows['table'] } {
  const project = typeof scope === 'string';
  const params: unknown[] = project ? [scope] : [scope.workspaceId, scope.viewerId];
  const bind = bindPositional(params);
  const drive = byCreation ? creationRows(filters, group) : undefined;
  const where = issueFilterConditions(drive?.filters ?? filters, bind);
  let base = project ? SQL_VISIBLE_ISSUES_OF_PROJECT : SQL_VISIBLE_ISSUES_OF_WORKSPACE;
  if (drive) {
    base = base.replace(FROM_ISSUES, `${FROM_ISSUES}JOIN ${drive.table} ga ON ga.issue_id = i.id\n`);
    const value = `${drive.valueSql ?? bind(drive.value)}::uuid`;
    where.push(`ga.${drive.column} = ${value}`);
    // a label's work items are all of its project (`withLabel`)
    if (drive.table === 'issue_labels') where.push(inLabelProject(value));
  }
  const rest = drive ? drive.group : group;
  if (rest) where.push(groupCondition(rest, bind));
  return { from: base + where.map((c) => ` AND ${c}`).join(''), params, conditions: where.length, rows: drive?.table };
}

/**
 * `visibleSql`'s `byCreation`: the link rows `ga` of one assignee or one label whose
 * `(issue_created_at, issue_id)` are the work item's `(created_at, id)` (migrations
 * `AssigneeIssueCreatedAt`, `LabelIssueCreatedAt` keep them equal) and are ordered by
 * `ix_issue_assignees_assignee_created` / `ix_issue_labels_label_created`: a page of that value's
 * work items in creation order (either way) walks that index and stops at the page, where the
 * value's rows were all read by id and sorted (at a million work items 5,500 an assignee, 10,000 a
 * label). One row per work item (the table's key is the pair), so the same rows as the `EXISTS` of
 * the filter or group. Whose rows: a group's key of `assignees__id` or `labels__id` (its condition
 * is then the join), else a filter of exactly one assignee, else of exactly one label (that filter's
 * condition is then the join, the other filters stay); none for other lists. Every other filter and
 * group applies to the work items as before.
 */
interface CreationRows {
  table: 'issue_assignees' | 'issue_labels';
  column: 'assignee_id' | 'label_id';
  value: string;
  /** `value` as an SQL expression (a group's `keySql`), else bound */
  valueSql?: string;
  /** the filters left to apply */
  filters: IssueFilterSet;
  /** the group whose condition is left to apply */
  group?: IssueGroup;
}

/** The rows a page in creation order is read from (see `CreationRows`), or undefined. */
function creationRows(filters: IssueFilterSet, group: IssueGroup | undefined): CreationRows | undefined {
  const assignees = { table: 'issue_assignees', column: 'assignee_id' } as const;
  const labels = { table: 'issue_labels', column: 'label_id' } as const;
  if (group && group.key !== null && (group.by === 'assignees__id' || group.by === 'labels__id'))
    return {
      ...(group.by === 'assignees__id' ? assignees : labels),
      value: group.key,
      valueSql: group.keySql,
      filters,
    };
  if (filters.assignee?.length === 1)
    return { ...assignees, value: filters.assignee[0], filters: { ...filters, assignee: undefined }, group };
  if (filters.label?.length === 1)
    return { ...labels, value: filters.label[0], filters: { ...filters, label: undefined }, group };
  return undefined;
}

/** The SQL type of each grouping's keys (`groupPages`' `unnest`; `groupKeys` gives them as text). */
const GROUP_KEY_TYPE: Readonly<Record<IssueGroupBy, 'uuid' | 'text' | 'date'>> = {
  state_id: 'uuid',
  state__group: 'text',
  priority: 'text',
  created_by: 'uuid',
  project_id: 'uuid',
  labels__id: 'uuid',
  assignees__id: 'uuid',
  cycle_id: 'uuid',
  issue_module__module_id: 'uuid',
  start_date: 'date',
  target_date: 'date',
};

/** The groupings whose key is a key of the visible work items' tallies (`groupCounts`). */
const TALLY_GROUPS: ReadonlySet<IssueGroupBy> = new Set([
  'state_id',
  'state__group',
  'priority',
  'created_by',
  'project_id',
]);

/**
 * `visibleSql`'s work items as their tallies (`project_issue_tallies`, migration `IssueTallies`:
 * visible work items per project, state, priority and creator, kept exact by triggers), when every
 * filter reads only those keys (`talliedFilters`): `FROM … WHERE …` over the alias `i` (and `p`
 * for a project), its values; `SUM(i.n)` over it is `COUNT(*)` over `visibleSql`. Undefined when a
 * filter reads anything else (count the work items).
 */
function tallySql(scope: IssueScope, filters: IssueFilterSet): { from: string; params: unknown[] } | undefined {
  const project = typeof scope === 'string';
  // the workspace's scope writes the Guest rule itself; a `guestViewerId` filter needs the project `p`
  if (!talliedFilters(filters) || (!project && filters.guestViewerId !== undefined)) return undefined;
  const params: unknown[] = project ? [scope] : [scope.workspaceId, scope.viewerId];
  const bind = bindPositional(params);
  const where = issueFilterConditions(filters, bind);
  const base = project ? SQL_TALLIES_OF_PROJECT : SQL_TALLIES_OF_WORKSPACE;
  return { from: base + where.map((c) => ` AND ${c}`).join(''), params };
}

/** The order key of `created_at` (`ISSUE_ORDER_KEYS`). */
const CREATED_AT = 'i.created_at';
/** How both `SQL_VISIBLE_ISSUES_OF_*` start. */
const FROM_ISSUES = 'FROM issues i\n';
