import { MeridianError, ROLE } from '#common';
import {
  CycleService,
  EstimateService,
  ImporterService,
  IntakeService,
  IssueChildrenService,
  IssueCommandService,
  IssueContext,
  IssueRelationService,
  LabelService,
  ModuleService,
  ProjectMemberService,
  ProjectService,
  RELATION_TYPES,
  RelationType,
  StateService,
} from '#domain';
import type { INestApplicationContext, Type } from '@nestjs/common';
import { issueFields } from './plane-mapping';
import { PlaneSource } from './plane-source';

/** `external_source` of everything this importer writes; `external_id` is the object's id in the source. */
export const SOURCE = 'plane';

/** The kinds counted in the summary, in the order they are imported. */
export const KINDS = [
  'members',
  'projects',
  'project_members',
  'states',
  'labels',
  'estimates',
  'intake',
  'work_items',
  'links',
  'comments',
  'relations',
  'cycles',
  'cycle_items',
  'modules',
  'module_items',
] as const;
export type Kind = (typeof KINDS)[number];
export type Outcome = 'created' | 'updated' | 'skipped' | 'failed';
export type Summary = Record<Kind, Record<Outcome, number>>;

export interface ImportOptions {
  /** the source workspace's slug */
  workspace: string;
  /** the Meridian workspace to write into (default: the source slug) */
  into: string;
  /** the Meridian user the import acts as (default: the target workspace's owner) */
  as?: string;
  log: (line: string) => void;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Reads one workspace of a Plane (or Meridian) server through its External API v1 and writes it
 * into a Meridian workspace through the domain's services, so every rule applies (names unique,
 * states of the project, assignees who are members, cycles that have not ended, …).
 *
 * Idempotent and resumable: every object created records its origin (`external_source = "plane"`,
 * `external_id` = the source id) in the same transaction, or has a natural key (a member's email, a
 * link's URL on its work item, a relation's pair, a work item's cycle and modules). A run first
 * reads what the target already holds and only creates what is missing, so a second run creates
 * nothing, and a run after a failure continues where the failed one stopped. A re-run does not
 * overwrite what was changed in Meridian since: it fills in, it does not sync.
 */
export class PlaneImporter {
  readonly summary: Summary = Object.fromEntries(
    KINDS.map((k) => [k, { created: 0, updated: 0, skipped: 0, failed: 0 }]),
  ) as Summary;
  /** source user id → target user id */
  private readonly users = new Map<string, string>();
  private readonly emails = new Map<string, string>();
  private workspaceId = '';
  /** false once the source answered 404 for a relations list (Plane 0.25.3's v1 has none): not asked again */
  private relationsExposed = true;
  private actorId = '';
  private readonly ws: string;

  constructor(
    private readonly app: INestApplicationContext,
    private readonly source: PlaneSource,
    private readonly options: ImportOptions,
  ) {
    this.ws = `workspaces/${encodeURIComponent(options.workspace)}`;
  }

  private get<T>(type: Type<T>): T {
    return this.app.get(type, { strict: false });
  }

  private count(kind: Kind, outcome: Outcome, what?: string, err?: unknown) {
    this.summary[kind][outcome]++;
    if (outcome === 'failed') this.options.log(`  ${kind}: failed ${what ?? ''}: ${describe(err)}`);
  }

  async run(): Promise<Summary> {
    const target = await this.get(ImporterService).target(this.options.into, this.options.as);
    this.workspaceId = target.workspace.id;
    this.actorId = target.userId;
    this.options.log(`Importing workspace "${this.options.workspace}" into "${this.options.into}"`);
    await this.importMembers();
    const projects = (await this.source.all<Json>(`${this.ws}/projects/`)) ?? [];
    this.options.log(`${projects.length} project(s)`);
    for (const [i, p] of projects.entries()) {
      this.options.log(`[${i + 1}/${projects.length}] project ${p.identifier} ${p.name}`);
      const projectId = await this.importProject(p);
      if (projectId) await this.importProjectContents(p, projectId);
    }
    return this.summary;
  }

  // ---- people ------------------------------------------------------------------------------

  /**
   * Members by email: the workspace's members where the source lists them (Meridian, newer Plane),
   * else the union of the projects' members (Plane 0.25.3 has no workspace member route; role 15).
   */
  private async importMembers() {
    let members = await this.source.get<Json[]>(`${this.ws}/members/`, true);
    if (!Array.isArray(members)) {
      const byId = new Map<string, Json>();
      for (const p of (await this.source.all<Json>(`${this.ws}/projects/`)) ?? []) {
        for (const m of (await this.source.get<Json[]>(`${this.ws}/projects/${p.id}/members/`, true)) ?? [])
          byId.set(m.id, m);
      }
      members = [...byId.values()];
    }
    this.options.log(`${members.length} member(s)`);
    for (const m of members) await this.ensureMember(m);
  }

  private async ensureMember(m: Json): Promise<string | null> {
    if (this.users.has(m.id)) return this.users.get(m.id)!;
    if (!m.email) {
      this.count('members', 'failed', `${m.display_name ?? m.id}`, 'the source does not show this member’s email');
      return null;
    }
    try {
      const r = await this.get(ImporterService).ensureMember(this.workspaceId, this.actorId, {
        email: m.email,
        first_name: m.first_name,
        last_name: m.last_name,
        display_name: m.display_name,
        role: typeof m.role === 'number' ? m.role : ROLE.MEMBER,
      });
      this.users.set(m.id, r.userId);
      this.emails.set(m.id, m.email);
      this.count('members', r.member === 'created' ? 'created' : 'skipped');
      return r.userId;
    } catch (err) {
      this.count('members', 'failed', m.email, err);
      return null;
    }
  }

  /** The target user for a source user id, or null when the source did not list them. */
  private user(sourceId: unknown): string | null {
    return typeof sourceId === 'string' ? (this.users.get(sourceId) ?? null) : null;
  }

  // ---- projects ------------------------------------------------------------------------------

  private async importProject(p: Json): Promise<string | null> {
    const existing = (await this.get(ImporterService).externalIds('project', this.workspaceId, SOURCE)).get(p.id);
    if (existing) {
      this.count('projects', 'skipped');
      return existing;
    }
    try {
      const created = await this.get(ProjectService).create(
        this.workspaceId,
        { userId: this.actorId, workspaceRole: ROLE.ADMIN },
        {
          name: p.name,
          identifier: p.identifier,
          description: p.description ?? '',
          network: p.network,
          project_lead: this.user(p.project_lead),
          default_assignee: this.user(p.default_assignee),
          emoji: p.emoji ?? null,
          icon_prop: p.icon_prop ?? null,
          logo_props: p.logo_props ?? {},
          module_view: p.module_view,
          cycle_view: p.cycle_view,
          issue_views_view: p.issue_views_view,
          page_view: p.page_view,
          intake_view: p.intake_view ?? p.inbox_view ?? false,
          is_time_tracking_enabled: p.is_time_tracking_enabled,
          guest_view_all_features: p.guest_view_all_features,
          archive_in: p.archive_in,
          close_in: p.close_in,
          timezone: p.timezone,
          external_source: SOURCE,
          external_id: p.id,
        },
      );
      this.count('projects', 'created');
      return created.id as string;
    } catch (err) {
      this.count('projects', 'failed', `${p.identifier} (its contents are skipped)`, err);
      return null;
    }
  }

  private ctx(projectId: string, userId = this.actorId): IssueContext {
    return { workspaceId: this.workspaceId, projectId, userId, role: ROLE.ADMIN };
  }

  private async importProjectContents(p: Json, projectId: string) {
    const base = `${this.ws}/projects/${p.id}`;
    await this.importProjectMembers(base, projectId);
    const states = await this.importStates(base, projectId);
    const labels = await this.importLabels(base, projectId);
    const points = await this.importEstimate(base, p, projectId);
    const issues = new Map(
      [...(await this.get(ImporterService).externalIds('issue', projectId, SOURCE))].map(([k, v]) => [k, v]),
    );
    const maps = { states, labels, points, issues };
    if (p.intake_view || p.inbox_view) await this.importIntake(base, projectId, maps);
    const sourceIssues = (await this.source.all<Json>(`${base}/issues/`)) ?? [];
    this.options.log(`  ${sourceIssues.length} work item(s)`);
    await this.importIssues(projectId, sourceIssues, maps);
    await this.importIssueChildren(base, projectId, sourceIssues, issues);
    await this.importCycles(base, projectId, issues);
    await this.importModules(base, projectId, issues);
  }

  /** Project members (role capped by what the workspace role allows: a workspace Guest stays a Guest). */
  private async importProjectMembers(base: string, projectId: string) {
    const members = (await this.source.get<Json[]>(`${base}/members/`, true)) ?? [];
    const roles = await this.get(ImporterService).projectRoles(projectId);
    for (const m of members) {
      const userId = this.user(m.id) ?? (await this.ensureMember(m));
      if (!userId) continue;
      if (roles.has(userId)) {
        this.count('project_members', 'skipped');
        continue;
      }
      try {
        const role = typeof m.role === 'number' ? m.role : ROLE.MEMBER;
        await this.get(ProjectMemberService).add(
          projectId,
          { userId: this.actorId, projectRole: ROLE.ADMIN, workspaceRole: ROLE.ADMIN },
          [{ member_id: userId, role }],
        );
        this.count('project_members', 'created');
      } catch (err) {
        // e.g. a project role above the member's workspace role: add them with the workspace's
        try {
          await this.get(ProjectMemberService).add(
            projectId,
            { userId: this.actorId, projectRole: ROLE.ADMIN, workspaceRole: ROLE.ADMIN },
            [{ member_id: userId, role: ROLE.GUEST }],
          );
          this.count('project_members', 'created');
        } catch {
          this.count('project_members', 'failed', m.email ?? m.id, err);
        }
      }
    }
  }

  /**
   * States by external id; else the project's state of the same name (its defaults: Backlog, Todo,
   * …) is adopted and marked as that source state ("updated"); else created.
   */
  private async importStates(base: string, projectId: string): Promise<Map<string, string>> {
    const importer = this.get(ImporterService);
    const service = this.get(StateService);
    const map = await importer.externalIds('state', projectId, SOURCE);
    const byName = await importer.namesOf('state', projectId);
    for (const s of (await this.source.all<Json>(`${base}/states/`)) ?? []) {
      if (map.has(s.id)) {
        this.count('states', 'skipped');
        continue;
      }
      try {
        const same = byName.get(s.name);
        if (same && !same.externalId) {
          await service.update(projectId, same.id, this.actorId, {
            color: s.color,
            group: s.group,
            description: s.description ?? '',
            ...(s.default ? { default: true } : {}),
            external_source: SOURCE,
            external_id: s.id,
          });
          map.set(s.id, same.id);
          this.count('states', 'updated');
        } else {
          const created = await service.create(this.workspaceId, projectId, this.actorId, {
            name: s.name,
            color: s.color,
            group: s.group,
            description: s.description ?? '',
            sequence: typeof s.sequence === 'number' ? s.sequence : undefined,
            default: !!s.default,
            external_source: SOURCE,
            external_id: s.id,
          });
          map.set(s.id, created.id as string);
          this.count('states', 'created');
        }
      } catch (err) {
        this.count('states', 'failed', s.name, err);
      }
    }
    return map;
  }

  /** Labels as states (by external id, else the same name adopted, else created), parents before children. */
  private async importLabels(base: string, projectId: string): Promise<Map<string, string>> {
    const importer = this.get(ImporterService);
    const service = this.get(LabelService);
    const map = await importer.externalIds('label', projectId, SOURCE);
    const byName = await importer.namesOf('label', projectId);
    const pending = (await this.source.all<Json>(`${base}/labels/`)) ?? [];
    const ids = new Set(pending.map((l) => l.id));
    while (pending.length) {
      // a label whose parent is still to come waits for it (a parent outside the list is dropped)
      const next = pending.findIndex((l) => !l.parent || !ids.has(l.parent) || map.has(l.parent));
      const l = pending.splice(next === -1 ? 0 : next, 1)[0];
      if (map.has(l.id)) {
        this.count('labels', 'skipped');
        continue;
      }
      const parent = l.parent ? (map.get(l.parent) ?? null) : null;
      try {
        const same = byName.get(l.name);
        if (same && !same.externalId) {
          await service.update(projectId, same.id, this.actorId, {
            color: l.color,
            parent,
            external_source: SOURCE,
            external_id: l.id,
          });
          map.set(l.id, same.id);
          this.count('labels', 'updated');
        } else {
          const created = await service.create(this.workspaceId, projectId, this.actorId, {
            name: l.name,
            color: l.color ?? '',
            description: l.description ?? '',
            parent,
            external_source: SOURCE,
            external_id: l.id,
          });
          map.set(l.id, created.id as string);
          this.count('labels', 'created');
        }
      } catch (err) {
        this.count('labels', 'failed', l.name, err);
      }
    }
    return map;
  }

  /**
   * The project's estimate and its points (`GET …/estimates/`: Meridian and Plane CE; absent from
   * Plane 0.25.3's v1, which then has none to import). One estimate per project: an existing one
   * is kept; points are matched by `key`. Returns source point id → target point id.
   */
  private async importEstimate(base: string, p: Json, projectId: string): Promise<Map<string, string>> {
    const map = new Map<string, string>();
    const estimate = await this.source.get<Json>(`${base}/estimates/`, true);
    if (!estimate?.id) return map;
    const sourcePoints =
      (await this.source.get<Json[]>(`${base}/estimates/${estimate.id}/estimate-points/`, true)) ?? [];
    const service = this.get(EstimateService);
    const ctx = this.ctx(projectId);
    try {
      let target: Json | null = null;
      try {
        target = await service.retrieve(projectId);
      } catch (err) {
        if (!(err instanceof MeridianError) || err.code !== 'NOT_FOUND') throw err;
      }
      if (!target) {
        const created = await service.createWithPoints(
          ctx,
          {
            name: estimate.name,
            description: estimate.description ?? '',
            type: estimate.type,
            last_used: estimate.last_used,
            external_source: SOURCE,
            external_id: estimate.id,
          },
          sourcePoints.map((pt) => ({
            key: pt.key,
            value: String(pt.value),
            description: pt.description ?? '',
            external_source: SOURCE,
            external_id: pt.id,
          })),
        );
        target = created.estimate;
        this.count('estimates', 'created');
      } else this.count('estimates', 'skipped');
      const targetPoints = await service.listPoints(projectId, target!.id as string);
      const byKey = new Map(targetPoints.map((pt) => [pt.key, pt.id as string]));
      const missing = sourcePoints.filter((pt) => !byKey.has(pt.key));
      if (missing.length) {
        const added = await service.createPoints(
          ctx,
          target!.id as string,
          missing.map((pt) => ({ key: pt.key, value: String(pt.value), external_source: SOURCE, external_id: pt.id })),
        );
        for (const pt of added) byKey.set(pt.key, pt.id as string);
      }
      for (const pt of sourcePoints) if (byKey.has(pt.key)) map.set(pt.id, byKey.get(pt.key)!);
      if (p.estimate === estimate.id) {
        await this.get(ProjectService).update(
          this.workspaceId,
          projectId,
          { userId: this.actorId, workspaceRole: ROLE.ADMIN },
          {
            estimate: target!.id as string,
          },
        );
      }
    } catch (err) {
      this.count('estimates', 'failed', estimate.name, err);
    }
    return map;
  }

  // ---- work items ----------------------------------------------------------------------------

  private issueFields(
    i: Json,
    maps: { states: Map<string, string>; labels: Map<string, string>; points: Map<string, string> },
  ) {
    return issueFields(i, maps, (id) => this.user(id));
  }

  /**
   * Intake items before the work items: each becomes a Meridian intake item (a new work item plus
   * its intake row, pending) marked with the source intake row's id, then gets the source's status
   * and its work item the source work item's id, so the work item pass finds it imported.
   */
  private async importIntake(
    base: string,
    projectId: string,
    maps: {
      states: Map<string, string>;
      labels: Map<string, string>;
      points: Map<string, string>;
      issues: Map<string, string>;
    },
  ) {
    const items = (await this.source.all<Json>(`${base}/intake-issues/`, true)) ?? [];
    const done = await this.get(ImporterService).externalIds('intake', projectId, SOURCE);
    const intake = this.get(IntakeService);
    for (const item of items) {
      const detail: Json = item.issue_detail ?? {};
      const sourceIssueId: string = detail.id ?? item.issue;
      if (done.has(item.id)) {
        this.count('intake', 'skipped');
        continue;
      }
      if (maps.issues.has(sourceIssueId)) {
        // imported earlier as a plain work item: leave it so
        this.count('intake', 'skipped');
        continue;
      }
      try {
        const author = this.user(detail.created_by ?? item.created_by) ?? this.actorId;
        const created = await intake.create(this.ctx(projectId, author), {
          issue: {
            name: detail.name ?? 'Untitled',
            description_html: detail.description_html || '<p></p>',
            priority: detail.priority,
          },
          source: item.source ?? null,
          source_email: item.source_email ?? null,
          external_source: SOURCE,
          external_id: item.id,
        });
        const issueId = created.issue as string;
        maps.issues.set(sourceIssueId, issueId);
        await this.get(IssueCommandService).update(this.ctx(projectId), issueId, {
          external_source: SOURCE,
          external_id: sourceIssueId,
          labels: this.issueFields(detail, maps).labels,
          assignees: this.issueFields(detail, maps).assignees,
        });
        if (typeof item.status === 'number' && item.status !== -2) {
          const duplicate = item.duplicate_to ? maps.issues.get(item.duplicate_to) : undefined;
          await intake.update(this.ctx(projectId), issueId, {
            status: item.status === 2 && !duplicate ? -1 : item.status,
            ...(item.status === 0 && item.snoozed_till ? { snoozed_till: item.snoozed_till } : {}),
            ...(duplicate ? { duplicate_to: duplicate } : {}),
          });
        }
        this.count('intake', 'created');
      } catch (err) {
        this.count('intake', 'failed', detail.name ?? item.id, err);
      }
    }
  }

  /** Work items, parents before their children (a parent outside the list, e.g. archived, is dropped). */
  private async importIssues(
    projectId: string,
    source: Json[],
    maps: {
      states: Map<string, string>;
      labels: Map<string, string>;
      points: Map<string, string>;
      issues: Map<string, string>;
    },
  ) {
    const commands = this.get(IssueCommandService);
    const inList = new Set(source.map((i) => i.id));
    const pending = [...source];
    let n = 0;
    while (pending.length) {
      const next = pending.findIndex(
        (i) =>
          !i.parent || !inList.has(i.parent) || maps.issues.has(i.parent) || !pending.some((x) => x.id === i.parent),
      );
      const i = pending.splice(next === -1 ? 0 : next, 1)[0];
      if (++n % 25 === 0) this.options.log(`  work items: ${n}/${source.length}`);
      if (maps.issues.has(i.id)) {
        this.count('work_items', 'skipped');
        continue;
      }
      try {
        const author = this.user(i.created_by) ?? this.actorId;
        const created = await commands.create(this.ctx(projectId, author), {
          name: i.name,
          ...this.issueFields(i, maps),
          parent: i.parent ? (maps.issues.get(i.parent) ?? null) : null,
          external_source: SOURCE,
          external_id: i.id,
        });
        maps.issues.set(i.id, created.id as string);
        this.count('work_items', 'created');
      } catch (err) {
        this.count('work_items', 'failed', i.name, err);
      }
    }
  }

  /** Links (by URL), comments (by external id, with their authors) and relations (by pair) of each work item. */
  private async importIssueChildren(base: string, projectId: string, source: Json[], issues: Map<string, string>) {
    const importer = this.get(ImporterService);
    const children = this.get(IssueChildrenService);
    const links = await importer.linkKeys(projectId);
    const comments = await importer.externalIds('comment', projectId, SOURCE);
    const pairs = await importer.relatedPairs(projectId);
    for (const [n, i] of source.entries()) {
      if ((n + 1) % 25 === 0) this.options.log(`  links, comments, relations: ${n + 1}/${source.length}`);
      const issueId = issues.get(i.id);
      if (!issueId) continue;
      const path = `${base}/issues/${i.id}`;
      for (const l of (await this.source.all<Json>(`${path}/links/`)) ?? []) {
        if (links.has(`${issueId}\n${l.url}`)) {
          this.count('links', 'skipped');
          continue;
        }
        try {
          await children.createLink(this.ctx(projectId, this.user(l.created_by) ?? this.actorId), issueId, {
            url: l.url,
            title: l.title ?? null,
            metadata: l.metadata ?? {},
          });
          links.add(`${issueId}\n${l.url}`);
          this.count('links', 'created');
        } catch (err) {
          this.count('links', 'failed', l.url, err);
        }
      }
      const sourceComments = ((await this.source.all<Json>(`${path}/comments/`)) ?? []).sort((a, b) =>
        String(a.created_at).localeCompare(String(b.created_at)),
      );
      for (const c of sourceComments) {
        if (comments.has(c.id)) {
          this.count('comments', 'skipped');
          continue;
        }
        try {
          const author = this.user(c.actor ?? c.created_by) ?? this.actorId;
          const created = await children.createComment(this.ctx(projectId, author), issueId, {
            comment_html: c.comment_html || '<p></p>',
            access: c.access === 'EXTERNAL' ? 'EXTERNAL' : 'INTERNAL',
            external_source: SOURCE,
            external_id: c.id,
          });
          comments.set(c.id, created.id as string);
          this.count('comments', 'created');
        } catch (err) {
          this.count('comments', 'failed', `on ${i.name}`, err);
        }
      }
      if (!this.relationsExposed) continue;
      const relations = await this.source.get<Record<string, unknown[]>>(`${path}/relations/`, true);
      if (relations === null) {
        this.relationsExposed = false; // Plane 0.25.3's v1 has no relations route
        this.options.log('  the source has no relations route: relations are not imported');
        continue;
      }
      for (const type of RELATION_TYPES) {
        for (const other of relations[type] ?? []) {
          const otherId = issues.get(typeof other === 'string' ? other : ((other as Json)?.id as string));
          if (!otherId || otherId === issueId) continue;
          if (pairs.has(importer.relatedPair(issueId, otherId))) {
            this.count('relations', 'skipped');
            continue;
          }
          try {
            await this.get(IssueRelationService).create(this.ctx(projectId), issueId, type as RelationType, [otherId]);
            pairs.add(importer.relatedPair(issueId, otherId));
            this.count('relations', 'created');
          } catch (err) {
            this.count('relations', 'failed', `${i.name} ${type}`, err);
          }
        }
      }
    }
  }

  // ---- planning ------------------------------------------------------------------------------

  /** Work item ids of a cycle or module list (issue objects; Plane's cycle quirk gives cycle-shaped items with the issue `id`). */
  private async memberIds(path: string): Promise<string[]> {
    const items = (await this.source.all<Json>(path)) ?? [];
    return items.map((x) => (typeof x.issue === 'string' && ID.test(x.issue) ? x.issue : x.id)).filter((x) => !!x);
  }

  /**
   * Cycles, then their work items. A dated cycle is created without dates, filled, then given its
   * dates, so a cycle that has already ended keeps its work items (Meridian, as Plane, refuses to add
   * work items to an ended cycle). A work item is in one cycle at most: one already in another stays.
   */
  private async importCycles(base: string, projectId: string, issues: Map<string, string>) {
    const service = this.get(CycleService);
    const importer = this.get(ImporterService);
    const map = await importer.externalIds('cycle', projectId, SOURCE);
    for (const c of (await this.source.all<Json>(`${base}/cycles/`)) ?? []) {
      let cycleId = map.get(c.id);
      try {
        if (!cycleId) {
          const created = await service.create(this.ctx(projectId, this.user(c.owned_by) ?? this.actorId), {
            name: c.name,
            description: c.description ?? '',
            logo_props: c.logo_props ?? {},
            external_source: SOURCE,
            external_id: c.id,
          });
          cycleId = created.id as string;
          this.count('cycles', 'created');
        } else this.count('cycles', 'skipped');
      } catch (err) {
        this.count('cycles', 'failed', c.name, err);
        continue;
      }
      const current = await service.retrieve(projectId, cycleId);
      const already = await importer.planningIssueIds('cycle', cycleId);
      const wanted = (await this.memberIds(`${base}/cycles/${c.id}/cycle-issues/?fields=id`))
        .map((id) => issues.get(id))
        .filter((id): id is string => !!id);
      const missing = wanted.filter((id) => !already.has(id));
      this.summary.cycle_items.skipped += wanted.length - missing.length;
      if (missing.length) {
        try {
          await service.addIssues(this.ctx(projectId), cycleId, missing);
          this.summary.cycle_items.created += missing.length;
        } catch (err) {
          this.summary.cycle_items.failed += missing.length - 1;
          this.count('cycle_items', 'failed', `of ${c.name}`, err);
        }
      }
      if (!current.start_date && !current.end_date && c.start_date && c.end_date) {
        try {
          await service.update(this.ctx(projectId), cycleId, { start_date: c.start_date, end_date: c.end_date });
        } catch (err) {
          this.count('cycles', 'failed', `${c.name} (dates)`, err);
        }
      }
    }
  }

  /** Modules (status, lead, members, dates), then their work items. */
  private async importModules(base: string, projectId: string, issues: Map<string, string>) {
    const service = this.get(ModuleService);
    const importer = this.get(ImporterService);
    const map = await importer.externalIds('module', projectId, SOURCE);
    for (const m of (await this.source.all<Json>(`${base}/modules/`)) ?? []) {
      let moduleId = map.get(m.id);
      try {
        if (!moduleId) {
          const created = await service.create(this.ctx(projectId, this.user(m.created_by) ?? this.actorId), {
            name: m.name,
            description: m.description ?? '',
            start_date: m.start_date ?? null,
            target_date: m.target_date ?? null,
            status: m.status,
            lead: this.user(m.lead),
            members: ((m.members ?? []) as unknown[]).map((u) => this.user(u)).filter((u): u is string => !!u),
            logo_props: m.logo_props ?? {},
            external_source: SOURCE,
            external_id: m.id,
          });
          moduleId = created.id as string;
          this.count('modules', 'created');
        } else this.count('modules', 'skipped');
      } catch (err) {
        this.count('modules', 'failed', m.name, err);
        continue;
      }
      const already = await importer.planningIssueIds('module', moduleId);
      const wanted = (await this.memberIds(`${base}/modules/${m.id}/module-issues/?fields=id`))
        .map((id) => issues.get(id))
        .filter((id): id is string => !!id);
      const missing = wanted.filter((id) => !already.has(id));
      this.summary.module_items.skipped += wanted.length - missing.length;
      if (missing.length) {
        try {
          await service.addIssues(this.ctx(projectId), moduleId, missing);
          this.summary.module_items.created += missing.length;
        } catch (err) {
          this.summary.module_items.failed += missing.length - 1;
          this.count('module_items', 'failed', `of ${m.name}`, err);
        }
      }
    }
  }
}

function describe(err: unknown): string {
  if (err instanceof MeridianError) {
    const extra = Object.keys(err.extra).length ? ` ${JSON.stringify(err.extra)}` : '';
    return `${err.code}: ${err.detail}${extra}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** The summary as a table (stdout). */
export function formatSummary(summary: Summary): string {
  const rows = KINDS.map((k) => [k, summary[k].created, summary[k].updated, summary[k].skipped, summary[k].failed]);
  const head = ['kind', 'created', 'updated', 'skipped', 'failed'];
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (r: Array<string | number>) =>
    r.map((v, i) => (i === 0 ? String(v).padEnd(width[i]) : String(v).padStart(width[i]))).join('  ');
  return [line(head), ...rows.map(line)].join('\n');
}
