import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addMember, addProjectMember, createAppProject, createWorkspace, signUp, SignedUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The JSON shapes of the App API's objects against Plane 0.25.3's App serializers and views: per
 * resource, the keys Plane's web app receives (copied from Plane's source, the path beside each
 * list) with their JSON type. `?` allows null where Plane's field is nullable. Meridian may carry
 * more keys; it must carry these, with these types.
 */
type Kind = 'string' | 'uuid' | 'number' | 'boolean' | 'array' | 'uuid[]' | 'object' | 'any';
type Spec = Record<string, `${Kind}` | `${Kind}?`>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function kindOf(v: unknown, kind: Kind): boolean {
  switch (kind) {
    case 'uuid':
      return typeof v === 'string' && UUID.test(v);
    case 'uuid[]':
      return Array.isArray(v) && v.every((x) => typeof x === 'string' && UUID.test(x));
    case 'array':
      return Array.isArray(v);
    case 'object':
      return typeof v === 'object' && v !== null && !Array.isArray(v);
    case 'any':
      return true;
    default:
      return typeof v === kind;
  }
}

/** Every key of `spec` is in `obj` with its kind (or null where the spec ends in `?`). */
function assertShape(name: string, obj: Record<string, unknown>, spec: Spec) {
  assert.ok(obj && typeof obj === 'object', `${name}: not an object: ${JSON.stringify(obj)}`);
  const wrong: string[] = [];
  for (const [key, want] of Object.entries(spec)) {
    const nullable = want.endsWith('?');
    const kind = (nullable ? want.slice(0, -1) : want) as Kind;
    if (!(key in obj)) wrong.push(`${key}: missing`);
    else if (obj[key] === null ? !nullable : !kindOf(obj[key], kind))
      wrong.push(`${key}: ${JSON.stringify(obj[key])} is not ${want}`);
  }
  assert.deepEqual(wrong, [], `${name}: ${wrong.join('; ')}`);
}

/** A list response's items, whether a bare array (Plane) or the cursor envelope. */
const items = (body: unknown): Array<Record<string, unknown>> =>
  Array.isArray(body) ? body : (body as { results: Array<Record<string, unknown>> }).results;

// plane/app/views/cycle/base.py CycleViewSet.list `.values(...)`
const CYCLE: Spec = {
  id: 'uuid',
  workspace_id: 'uuid',
  project_id: 'uuid',
  name: 'string',
  description: 'string',
  start_date: 'string?',
  end_date: 'string?',
  owned_by_id: 'uuid',
  view_props: 'object',
  sort_order: 'number',
  external_source: 'string?',
  external_id: 'string?',
  progress_snapshot: 'object',
  logo_props: 'object',
  is_favorite: 'boolean',
  total_issues: 'number',
  cancelled_issues: 'number',
  completed_issues: 'number',
  assignee_ids: 'uuid[]',
  status: 'string',
  version: 'number',
  created_by: 'uuid?',
};
// plane/app/views/cycle/archive.py CycleArchiveUnarchiveEndpoint.get (the other counts, archived_at)
// and CycleProgressEndpoint (the estimate point sums; packages/types/src/cycle/cycle.d.ts TProgressSnapshot)
const CYCLE_PROGRESS: Spec = {
  started_issues: 'number',
  unstarted_issues: 'number',
  backlog_issues: 'number',
  archived_at: 'string?',
  total_estimate_points: 'number',
  completed_estimate_points: 'number',
  backlog_estimate_points: 'number',
  started_estimate_points: 'number',
  unstarted_estimate_points: 'number',
  cancelled_estimate_points: 'number',
};
// plane/app/views/cycle/base.py CycleViewSet.retrieve adds `sub_issues`
const CYCLE_DETAIL: Spec = { ...CYCLE, sub_issues: 'number' };

// plane/app/serializers/module.py ModuleSerializer (= ModuleViewSet.list `.values(...)`)
const MODULE: Spec = {
  id: 'uuid',
  workspace_id: 'uuid',
  project_id: 'uuid',
  name: 'string',
  description: 'string',
  description_text: 'any?',
  description_html: 'any?',
  start_date: 'string?',
  target_date: 'string?',
  status: 'string',
  lead_id: 'uuid?',
  member_ids: 'uuid[]',
  view_props: 'object',
  sort_order: 'number',
  external_source: 'string?',
  external_id: 'string?',
  logo_props: 'object',
  total_estimate_points: 'number',
  completed_estimate_points: 'number',
  is_favorite: 'boolean',
  total_issues: 'number',
  cancelled_issues: 'number',
  completed_issues: 'number',
  started_issues: 'number',
  unstarted_issues: 'number',
  backlog_issues: 'number',
  created_at: 'string',
  updated_at: 'string',
  archived_at: 'string?',
};
// plane/app/serializers/module.py ModuleDetailSerializer + plane/app/views/module/base.py retrieve
const MODULE_DETAIL: Spec = {
  ...MODULE,
  link_module: 'array',
  sub_issues: 'number',
  backlog_estimate_points: 'number',
  unstarted_estimate_points: 'number',
  started_estimate_points: 'number',
  cancelled_estimate_points: 'number',
  distribution: 'object',
  estimate_distribution: 'object',
};
// plane/app/views/module/base.py retrieve: assignee_distribution / label_distribution `.values(...)`
const ASSIGNEE_DISTRIBUTION: Spec = {
  first_name: 'string?',
  last_name: 'string?',
  assignee_id: 'uuid?',
  avatar_url: 'string?',
  display_name: 'string?',
  total_issues: 'number',
  completed_issues: 'number',
  pending_issues: 'number',
};
const LABEL_DISTRIBUTION: Spec = {
  label_name: 'string?',
  color: 'string?',
  label_id: 'uuid?',
  total_issues: 'number',
  completed_issues: 'number',
  pending_issues: 'number',
};

// plane/app/serializers/state.py StateSerializer
const STATE: Spec = {
  id: 'uuid',
  project_id: 'uuid',
  workspace_id: 'uuid',
  name: 'string',
  color: 'string',
  group: 'string',
  default: 'boolean',
  description: 'string',
  sequence: 'number',
};

// plane/app/serializers/issue.py LabelSerializer
const LABEL: Spec = {
  parent: 'uuid?',
  name: 'string',
  color: 'string',
  id: 'uuid',
  project_id: 'uuid',
  workspace_id: 'uuid',
  sort_order: 'number',
};

// plane/app/serializers/issue.py IssueCommentSerializer's nested details (issue_detail: IssueFlatSerializer,
// project_detail: ProjectLiteSerializer, workspace_detail: WorkspaceLiteSerializer); the web app's comment
// card reads workspace_detail.slug and project_detail.id, the history rows project_detail.identifier
const DETAILS: Spec = { issue_detail: 'object', project_detail: 'object', workspace_detail: 'object' };
// plane/app/serializers/issue.py IssueCommentSerializer (fields "__all__" of IssueComment, plus
// actor_detail, comment_reactions, is_member); issue_id/project_id/workspace_id are Meridian's
const COMMENT: Spec = {
  id: 'uuid',
  comment_stripped: 'string',
  comment_html: 'string',
  attachments: 'array',
  access: 'string',
  external_source: 'string?',
  external_id: 'string?',
  edited_at: 'string?',
  actor: 'uuid',
  issue: 'uuid',
  project: 'uuid',
  workspace: 'uuid',
  created_at: 'string',
  updated_at: 'string',
  created_by: 'uuid?',
  updated_by: 'uuid?',
  actor_detail: 'object',
  comment_reactions: 'array',
  issue_id: 'uuid',
  project_id: 'uuid',
  workspace_id: 'uuid',
  ...DETAILS,
};
const ISSUE_FLAT: Spec = {
  id: 'uuid',
  name: 'string',
  description_html: 'string',
  priority: 'string',
  start_date: 'string?',
  target_date: 'string?',
  sequence_id: 'number',
  sort_order: 'number',
  is_draft: 'boolean',
};
const PROJECT_LITE: Spec = {
  id: 'uuid',
  identifier: 'string',
  name: 'string',
  cover_image: 'string?',
  cover_image_url: 'string?',
  logo_props: 'object',
  description: 'string',
};
const WORKSPACE_LITE: Spec = { id: 'uuid', name: 'string', slug: 'string', logo_url: 'string?' };
// plane/app/serializers/issue.py IssueActivitySerializer (fields "__all__" of IssueActivity, plus
// actor_detail, issue_detail, project_detail, workspace_detail, source_data)
const ACTIVITY: Spec = {
  id: 'uuid',
  verb: 'string',
  field: 'string?',
  old_value: 'string?',
  new_value: 'string?',
  comment: 'string?',
  attachments: 'array',
  old_identifier: 'uuid?',
  new_identifier: 'uuid?',
  epoch: 'number?',
  issue: 'uuid',
  issue_comment: 'uuid?',
  actor: 'uuid?',
  project: 'uuid',
  workspace: 'uuid',
  created_at: 'string',
  updated_at: 'string',
  created_by: 'uuid?',
  updated_by: 'uuid?',
  actor_detail: 'object?',
  ...DETAILS,
  source_data: 'object?',
};
// plane/app/serializers/module.py ModuleLinkSerializer (fields "__all__")
const MODULE_LINK: Spec = {
  id: 'uuid',
  title: 'string?',
  url: 'string',
  metadata: 'object',
  module: 'uuid',
  project: 'uuid',
  workspace: 'uuid',
  created_at: 'string',
  updated_at: 'string',
  created_by: 'uuid?',
  updated_by: 'uuid?',
};

// plane/app/serializers/user.py UserLiteSerializer
const USER_LITE: Spec = {
  id: 'uuid',
  first_name: 'string',
  last_name: 'string',
  avatar: 'string?',
  avatar_url: 'string?',
  is_bot: 'boolean',
  display_name: 'string',
};
// plane/app/serializers/issue.py CommentReactionSerializer (fields "__all__")
const COMMENT_REACTION: Spec = {
  id: 'uuid',
  reaction: 'string',
  actor: 'uuid',
  comment: 'uuid',
  project: 'uuid',
  workspace: 'uuid',
  created_at: 'string',
  updated_at: 'string',
};

// plane/app/serializers/project.py ProjectListSerializer (fields "__all__" of Project, plus
// is_favorite, sort_order, member_role, anchor, members, cover_image_url, inbox_view)
const PROJECT: Spec = {
  id: 'uuid',
  name: 'string',
  description: 'string',
  network: 'number',
  workspace: 'uuid',
  identifier: 'string',
  default_assignee: 'uuid?',
  project_lead: 'uuid?',
  emoji: 'string?',
  icon_prop: 'object?',
  module_view: 'boolean',
  cycle_view: 'boolean',
  issue_views_view: 'boolean',
  page_view: 'boolean',
  intake_view: 'boolean',
  is_time_tracking_enabled: 'boolean',
  is_issue_type_enabled: 'boolean',
  guest_view_all_features: 'boolean',
  cover_image: 'string?',
  cover_image_asset: 'uuid?',
  estimate: 'uuid?',
  archive_in: 'number',
  close_in: 'number',
  logo_props: 'object',
  default_state: 'uuid?',
  archived_at: 'string?',
  timezone: 'string',
  created_at: 'string',
  updated_at: 'string',
  created_by: 'uuid?',
  updated_by: 'uuid?',
  is_favorite: 'boolean',
  sort_order: 'number?',
  member_role: 'number?',
  anchor: 'string?',
  members: 'uuid[]',
  cover_image_url: 'string?',
  inbox_view: 'boolean',
};

// plane/utils/grouper.py issue_on_results (IssueViewSet.list `.values(...)`)
const WORK_ITEM: Spec = {
  id: 'uuid',
  name: 'string',
  state_id: 'uuid?',
  sort_order: 'number',
  completed_at: 'string?',
  estimate_point: 'uuid?',
  priority: 'string',
  start_date: 'string?',
  target_date: 'string?',
  sequence_id: 'number',
  project_id: 'uuid',
  parent_id: 'uuid?',
  cycle_id: 'uuid?',
  sub_issues_count: 'number',
  created_at: 'string',
  updated_at: 'string',
  created_by: 'uuid?',
  updated_by: 'uuid?',
  attachment_count: 'number',
  link_count: 'number',
  is_draft: 'boolean',
  archived_at: 'string?',
  state__group: 'string?',
  assignee_ids: 'uuid[]',
  label_ids: 'uuid[]',
  module_ids: 'uuid[]',
};

// plane/app/views/project/member.py ProjectMemberViewSet.list / create: ProjectMemberRoleSerializer
const PROJECT_MEMBER_ROLE: Spec = { id: 'uuid', member: 'uuid', role: 'number' };

// plane/app/views/workspace/member.py WorkSpaceMemberViewSet.list: WorkspaceMemberAdminSerializer
// fields ("id", "member", "role"), member a UserAdminLiteSerializer
const WORKSPACE_MEMBER: Spec = { id: 'uuid', member: 'object', role: 'number' };
const USER_ADMIN_LITE: Spec = { ...USER_LITE, email: 'string', last_login_medium: 'string?' };

// plane/app/views/workspace/base.py UserWorkSpacesEndpoint: WorkSpaceSerializer + role, total_members
const WORKSPACE: Spec = {
  id: 'uuid',
  name: 'string',
  slug: 'string',
  logo: 'string?',
  logo_url: 'string?',
  owner: 'uuid',
  organization_size: 'string?',
  timezone: 'string',
  created_at: 'string',
  updated_at: 'string',
  role: 'number',
  total_members: 'number',
};

// plane/app/serializers/intake.py IntakeIssueSerializer (`issue` an IssueIntakeSerializer object)
const INTAKE_ISSUE: Spec = {
  id: 'uuid',
  status: 'number',
  duplicate_to: 'uuid?',
  snoozed_till: 'string?',
  source: 'string?',
  issue: 'object',
  created_by: 'uuid?',
};
// plane/app/serializers/intake.py IntakeIssueDetailSerializer (retrieve, create, partial_update):
// `issue` an IssueDetailSerializer object, `duplicate_issue_detail` an IssueIntakeSerializer one
const INTAKE_ISSUE_DETAIL: Spec = {
  id: 'uuid',
  status: 'number',
  duplicate_to: 'uuid?',
  snoozed_till: 'string?',
  duplicate_issue_detail: 'object?',
  source: 'string?',
  issue: 'object',
};
// plane/app/serializers/issue.py IssueSerializer.Meta.fields + description_html (IssueDetailSerializer)
const INTAKE_WORK_ITEM_DETAIL: Spec = {
  id: 'uuid',
  name: 'string',
  state_id: 'uuid?',
  sort_order: 'number',
  completed_at: 'string?',
  estimate_point: 'uuid?',
  priority: 'string',
  start_date: 'string?',
  target_date: 'string?',
  sequence_id: 'number',
  project_id: 'uuid',
  parent_id: 'uuid?',
  cycle_id: 'uuid?',
  module_ids: 'uuid[]',
  label_ids: 'uuid[]',
  assignee_ids: 'uuid[]',
  sub_issues_count: 'number',
  created_at: 'string',
  updated_at: 'string',
  created_by: 'uuid?',
  updated_by: 'uuid?',
  attachment_count: 'number',
  link_count: 'number',
  is_draft: 'boolean',
  archived_at: 'string?',
  description_html: 'string',
};
// plane/utils/paginator.py BasePaginator.paginate: the envelope the web app's intake store reads
// (packages/types/src/inbox.d.ts TInboxIssueWithPagination)
const PAGE_ENVELOPE: Spec = {
  results: 'array',
  count: 'number',
  total_results: 'number',
  total_pages: 'number',
  next_cursor: 'string?',
  prev_cursor: 'string?',
  next_page_results: 'boolean',
  prev_page_results: 'boolean',
  extra_stats: 'any?',
};
// plane/app/serializers/issue.py IssueIntakeSerializer
const INTAKE_WORK_ITEM: Spec = {
  id: 'uuid',
  name: 'string',
  priority: 'string',
  sequence_id: 'number',
  project_id: 'uuid',
  created_at: 'string',
  label_ids: 'uuid[]',
  created_by: 'uuid?',
};

describe('App API: object shapes follow Plane 0.25.3', () => {
  let t: TestApp;
  let ada: SignedUp;
  let bob: SignedUp;
  let ws: { id: string; slug: string };
  let base: string;
  const ids: Record<string, string> = {};
  const bearer = (u: SignedUp) => ({ Authorization: `Bearer ${u.token}` });

  before(async () => {
    t = await startTestApp();
    ada = await signUp(t);
    bob = await signUp(t);
    ws = await createWorkspace(t, ada.token);
    await addMember(t, ws.id, bob.userId, 15);
    const project = await createAppProject(t, ada.token, ws.slug, { identifier: 'SHAPE', name: 'Shapes' });
    await addProjectMember(t, ws.id, project.id, bob.userId, 15);
    ids.project = project.id;
    base = `/api/workspaces/${ws.slug}/projects/${project.id}`;
    const ok = (res: { status: number; body: Record<string, unknown> }, status = 201) => {
      assert.equal(res.status, status, JSON.stringify(res.body));
      return res.body;
    };
    const states = items((await t.api.get(`${base}/states/`).set(bearer(ada))).body);
    const started = states.find((s) => s.group === 'started')!;
    const done = states.find((s) => s.group === 'completed')!;
    ids.label = ok(await t.api.post(`${base}/issue-labels/`).set(bearer(ada)).send({ name: 'bug', color: '#ff0000' }))
      .id as string;
    const today = new Date().toISOString().slice(0, 10);
    const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const lastWeek = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
    ids.parent = ok(
      await t.api
        .post(`${base}/issues/`)
        .set(bearer(ada))
        .send({ name: 'Parent', state_id: started.id, label_ids: [ids.label], assignee_ids: [bob.userId] }),
    ).id as string;
    ids.child = ok(
      await t.api
        .post(`${base}/issues/`)
        .set(bearer(ada))
        .send({ name: 'Child', parent_id: ids.parent, state_id: done.id }),
    ).id as string;
    ids.cycle = ok(
      await t.api
        .post(`${base}/cycles/`)
        .set(bearer(ada))
        .send({ name: 'Now', start_date: lastWeek, end_date: inAWeek }),
    ).id as string;
    ok(
      await t.api
        .post(`${base}/cycles/${ids.cycle}/cycle-issues/`)
        .set(bearer(ada))
        .send({ issues: [ids.parent, ids.child] }),
      200,
    );
    ids.module = ok(
      await t.api
        .post(`${base}/modules/`)
        .set(bearer(ada))
        .send({ name: 'Mod', start_date: lastWeek, target_date: today, lead: ada.userId, members: [bob.userId] }),
    ).id as string;
    ok(
      await t.api
        .post(`${base}/modules/${ids.module}/issues/`)
        .set(bearer(ada))
        .send({ issues: [ids.parent, ids.child] }),
      200,
    );
    ids.comment = ok(
      await t.api
        .post(`${base}/issues/${ids.parent}/comments/`)
        .set(bearer(ada))
        .send({ comment_html: '<p>hello</p>' }),
    ).id as string;
    const reaction = await t.api
      .post(`${base}/comments/${ids.comment}/reactions/`)
      .set(bearer(bob))
      .send({ reaction: '128077' });
    assert.ok([200, 201].includes(reaction.status), JSON.stringify(reaction.body));
    ok(await t.api.post(`${base}/project-deploy-boards/`).set(bearer(ada)).send({}));
  });
  after(() => t.close());

  it('cycles: list, retrieve and the current view carry CycleViewSet’s values with a computed status', async () => {
    const list = await t.api.get(`${base}/cycles/`).set(bearer(ada));
    assert.equal(list.status, 200);
    const c = items(list.body).find((x) => x.id === ids.cycle)!;
    assertShape('cycle (list)', c, { ...CYCLE, ...CYCLE_PROGRESS });
    assert.equal(c.status, 'CURRENT');
    assert.deepEqual(c.assignee_ids, [bob.userId]);
    assert.equal(c.total_issues, 2);
    assert.equal(c.owned_by_id, ada.userId);
    const one = await t.api.get(`${base}/cycles/${ids.cycle}/`).set(bearer(ada));
    assert.equal(one.status, 200);
    assertShape('cycle (retrieve)', one.body, { ...CYCLE_DETAIL, ...CYCLE_PROGRESS });
    assert.equal(one.body.sub_issues, 1);
    const current = await t.api.get(`${base}/cycles/?cycle_view=current`).set(bearer(ada));
    assertShape('cycle (current)', items(current.body)[0], CYCLE);
    // a cycle without dates is a draft; one that ended is completed; one that starts later is upcoming
    const draft = await t.api.post(`${base}/cycles/`).set(bearer(ada)).send({ name: 'Later' });
    assert.equal(draft.status, 201);
    assertShape('cycle (create)', draft.body, CYCLE);
    assert.equal(draft.body.status, 'DRAFT');
    assert.deepEqual(draft.body.assignee_ids, []);
    const past = await t.api
      .post(`${base}/cycles/`)
      .set(bearer(ada))
      .send({ name: 'Past', start_date: '2020-01-01', end_date: '2020-01-14' });
    assert.equal(past.body.status, 'COMPLETED');
    const future = await t.api
      .patch(`${base}/cycles/${draft.body.id}/`)
      .set(bearer(ada))
      .send({ start_date: '2999-01-01', end_date: '2999-01-14' });
    assert.equal(future.status, 200, JSON.stringify(future.body));
    assert.equal(future.body.status, 'UPCOMING');
  });

  it('modules: list values, and the detail with links, sub_issues and the distribution', async () => {
    const list = await t.api.get(`${base}/modules/`).set(bearer(ada));
    assert.equal(list.status, 200);
    const m = items(list.body).find((x) => x.id === ids.module)!;
    assertShape('module (list)', m, MODULE);
    assert.equal(m.lead_id, ada.userId);
    assert.deepEqual(m.member_ids, [bob.userId]);
    assert.equal(m.total_issues, 2);
    assert.equal(m.completed_issues, 1);
    const one = await t.api.get(`${base}/modules/${ids.module}/`).set(bearer(ada));
    assert.equal(one.status, 200);
    assertShape('module (retrieve)', one.body, MODULE_DETAIL);
    assert.equal(one.body.sub_issues, 1);
    const dist = one.body.distribution as {
      assignees: Array<Record<string, unknown>>;
      labels: Array<Record<string, unknown>>;
      completion_chart: Record<string, number | null>;
    };
    for (const row of dist.assignees) assertShape('module distribution (assignee)', row, ASSIGNEE_DISTRIBUTION);
    for (const row of dist.labels) assertShape('module distribution (label)', row, LABEL_DISTRIBUTION);
    const bobRow = dist.assignees.find((r) => r.assignee_id === bob.userId)!;
    assert.deepEqual([bobRow.total_issues, bobRow.completed_issues, bobRow.pending_issues], [1, 0, 1]);
    const bug = dist.labels.find((r) => r.label_id === ids.label)!;
    assert.deepEqual([bug.label_name, bug.total_issues], ['bug', 1]);
    // one day per date from start to target; today's count is what is not completed yet
    assert.equal(Object.keys(dist.completion_chart).length, 8);
    assert.equal(dist.completion_chart[new Date().toISOString().slice(0, 10)], 1);
    const created = await t.api.post(`${base}/modules/`).set(bearer(ada)).send({ name: 'Empty' });
    assert.equal(created.status, 201);
    assertShape('module (create)', created.body, MODULE);
    const updated = await t.api.patch(`${base}/modules/${created.body.id}/`).set(bearer(ada)).send({ name: 'E' });
    assertShape('module (update)', updated.body, MODULE);
  });

  it('states and labels carry project_id and workspace_id', async () => {
    const states = await t.api.get(`${base}/states/`).set(bearer(ada));
    for (const s of items(states.body)) assertShape('state', s, STATE);
    assert.equal(items(states.body)[0].project_id, ids.project);
    const wsStates = await t.api.get(`/api/workspaces/${ws.slug}/states/`).set(bearer(ada));
    for (const s of items(wsStates.body)) assertShape('state (workspace)', s, STATE);
    const labels = await t.api.get(`${base}/issue-labels/`).set(bearer(ada));
    for (const l of items(labels.body)) assertShape('label', l, LABEL);
    const one = await t.api.get(`${base}/issue-labels/${ids.label}/`).set(bearer(ada));
    assertShape('label (retrieve)', one.body, LABEL);
    assert.equal(one.body.workspace_id, ws.id);
  });

  it('comments carry actor_detail and comment_reactions', async () => {
    const list = await t.api.get(`${base}/issues/${ids.parent}/comments/`).set(bearer(bob));
    assert.equal(list.status, 200);
    const c = items(list.body)[0];
    assertShape('comment', c, COMMENT);
    assertShape('comment actor_detail', c.actor_detail as Record<string, unknown>, USER_LITE);
    assert.equal((c.actor_detail as { id: string }).id, ada.userId);
    const reactions = c.comment_reactions as Array<Record<string, unknown>>;
    assert.equal(reactions.length, 1);
    assertShape('comment reaction', reactions[0], COMMENT_REACTION);
    assert.equal(reactions[0].actor, bob.userId);
    const one = await t.api.get(`${base}/issues/${ids.parent}/comments/${ids.comment}/`).set(bearer(ada));
    assertShape('comment (retrieve)', one.body, COMMENT);
    const edited = await t.api
      .patch(`${base}/issues/${ids.parent}/comments/${ids.comment}/`)
      .set(bearer(ada))
      .send({ comment_html: '<p>edited</p>' });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assertShape('comment (update)', edited.body, COMMENT);
  });

  it('projects: list, detail, create and update carry ProjectListSerializer’s keys', async () => {
    const list = await t.api.get(`/api/workspaces/${ws.slug}/projects/`).set(bearer(ada));
    assert.equal(list.status, 200);
    const p = items(list.body).find((x) => x.id === ids.project)!;
    assertShape('project (list)', p, PROJECT);
    assert.deepEqual(p.members, [ada.userId, bob.userId].sort());
    assert.match(p.anchor as string, /^[0-9a-f]{32}$/);
    assert.equal(p.member_role, 20);
    const one = await t.api.get(`${base}/`).set(bearer(bob));
    assertShape('project (retrieve)', one.body, PROJECT);
    assert.equal(one.body.member_role, 15);
    const created = await createAppProject(t, ada.token, ws.slug);
    assertShape('project (create)', created as unknown as Record<string, unknown>, PROJECT);
    assert.equal((created as unknown as { anchor: unknown }).anchor, null);
    const updated = await t.api
      .patch(`/api/workspaces/${ws.slug}/projects/${created.id}/`)
      .set(bearer(ada))
      .send({ description: 'd' });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assertShape('project (update)', updated.body, PROJECT);
  });

  it('work items: the list values include state__group and the id lists', async () => {
    const list = await t.api.get(`${base}/issues/`).set(bearer(ada));
    assert.equal(list.status, 200);
    const parent = items(list.body).find((x) => x.id === ids.parent)!;
    assertShape('work item (list)', parent, WORK_ITEM);
    assert.equal(parent.state__group, 'started');
    assert.equal(parent.cycle_id, ids.cycle);
    assert.deepEqual(parent.module_ids, [ids.module]);
    assert.equal(parent.sub_issues_count, 1);
  });

  it('members: project members list their user as an id; workspace members as an object', async () => {
    const list = await t.api.get(`${base}/members/`).set(bearer(bob));
    assert.equal(list.status, 200);
    for (const m of items(list.body)) assertShape('project member', m, PROJECT_MEMBER_ROLE);
    assert.deepEqual(
      items(list.body)
        .map((m) => m.member)
        .sort(),
      [ada.userId, bob.userId].sort(),
    );
    const wsList = await t.api.get(`/api/workspaces/${ws.slug}/members/`).set(bearer(ada));
    for (const m of items(wsList.body)) {
      assertShape('workspace member', m, WORKSPACE_MEMBER);
      assertShape('workspace member user', m.member as Record<string, unknown>, USER_ADMIN_LITE);
    }
    const mine = await t.api.get('/api/users/me/workspaces/').set(bearer(ada));
    assert.equal(mine.status, 200);
    for (const w of items(mine.body)) assertShape('workspace', w, WORKSPACE);
  });

  it('intake: the list envelope and IntakeIssueSerializer; the other answers IntakeIssueDetailSerializer', async () => {
    await t.api.patch(`${base}/`).set(bearer(ada)).send({ intake_view: true });
    const sub = await t.api
      .post(`${base}/intake-issues/`)
      .set(bearer(bob))
      .send({ issue: { name: 'Report', priority: 'high' } });
    assert.equal(sub.status, 201, JSON.stringify(sub.body));
    assertShape('intake item (create)', sub.body, { ...INTAKE_ISSUE_DETAIL, created_by: 'uuid?' });
    assertShape('intake work item (create)', sub.body.issue, { ...INTAKE_WORK_ITEM, ...INTAKE_WORK_ITEM_DETAIL });
    assert.equal(sub.body.duplicate_issue_detail, null);
    const list = await t.api.get(`${base}/inbox-issues/?per_page=10&cursor=10:0:0`).set(bearer(ada));
    assert.equal(list.status, 200);
    assertShape('intake list envelope', list.body, PAGE_ENVELOPE);
    const row = items(list.body)[0];
    assertShape('intake item (list)', row, INTAKE_ISSUE);
    assertShape('intake work item (list)', row.issue as Record<string, unknown>, INTAKE_WORK_ITEM);
    const one = await t.api.get(`${base}/inbox-issues/${sub.body.issue.id}/?expand=issue_inbox`).set(bearer(ada));
    assert.equal(one.status, 200);
    assertShape('intake item (retrieve)', one.body, INTAKE_ISSUE_DETAIL);
    assertShape('intake work item (retrieve)', one.body.issue, INTAKE_WORK_ITEM_DETAIL);
    assert.equal(one.body.issue.name, 'Report');
    // a second report, marked a duplicate of the parent work item
    const dup = await t.api
      .post(`${base}/inbox-issues/`)
      .set(bearer(bob))
      .send({ source: 'IN_APP', issue: { name: 'Same again' } });
    const marked = await t.api
      .patch(`${base}/inbox-issues/${dup.body.issue.id}/`)
      .set(bearer(ada))
      .send({ status: 2, duplicate_to: ids.parent });
    assert.equal(marked.status, 200, JSON.stringify(marked.body));
    assertShape('intake item (duplicate)', marked.body, INTAKE_ISSUE_DETAIL);
    assert.deepEqual([marked.body.status, marked.body.duplicate_to], [2, ids.parent]);
    assertShape('duplicate_issue_detail', marked.body.duplicate_issue_detail, {
      id: 'uuid',
      name: 'string',
      priority: 'string',
      sequence_id: 'number',
      project_id: 'uuid',
      created_at: 'string',
      created_by: 'uuid?',
    });
    assert.equal(marked.body.duplicate_issue_detail.name, 'Parent');
    const accepted = await t.api
      .patch(`${base}/intake-issues/${sub.body.issue.id}/`)
      .set(bearer(ada))
      .send({ status: 1 });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assertShape('intake item (update)', accepted.body, INTAKE_ISSUE_DETAIL);
    assertShape('intake work item (update)', accepted.body.issue, INTAKE_WORK_ITEM_DETAIL);
    // the web app's tabs: open (pending, Plane's default) and closed (accepted, declined, duplicate)
    const issueIds = (body: unknown) => items(body).map((r) => (r.issue as { id: string }).id);
    const open = await t.api.get(`${base}/inbox-issues/`).set(bearer(ada));
    assert.deepEqual(issueIds(open.body), []);
    assert.equal(open.body.total_results, 0);
    const closed = await t.api
      .get(`${base}/inbox-issues/?status=1,-1,2&order_by=issue__sequence_id&per_page=10&cursor=10:0:0`)
      .set(bearer(ada));
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    assert.deepEqual(issueIds(closed.body), [sub.body.issue.id, dup.body.issue.id]);
    const newest = await t.api.get(`${base}/inbox-issues/?status=1,2&order_by=-issue__created_at`).set(bearer(ada));
    assert.deepEqual(issueIds(newest.body), [dup.body.issue.id, sub.body.issue.id]);
    const high = await t.api.get(`${base}/inbox-issues/?status=1,2&priority=high`).set(bearer(ada));
    assert.deepEqual(issueIds(high.body), [sub.body.issue.id]);
    const bad = await t.api.get(`${base}/inbox-issues/?order_by=name`).set(bearer(ada));
    assert.equal(bad.status, 400, JSON.stringify(bad.body));
    assert.equal((await t.api.get(`${base}/inbox-issues/?status=7`).set(bearer(ada))).status, 400);
  });

  it('is_favorite: the caller’s favourites, first in the cycle and module lists', async () => {
    const fav = async (entity_type: string, entity_identifier: string) => {
      const res = await t.api
        .post(`/api/workspaces/${ws.slug}/user-favorites/`)
        .set(bearer(ada))
        .send({ entity_type, entity_identifier });
      assert.ok([200, 201].includes(res.status), JSON.stringify(res.body));
      return res.body.id as string;
    };
    // a newer cycle and module, not favourites: the favourites still come first
    const newerCycle = await t.api.post(`${base}/cycles/`).set(bearer(ada)).send({ name: 'Newer' });
    const newerModule = await t.api.post(`${base}/modules/`).set(bearer(ada)).send({ name: 'Newer module' });
    const favs = [await fav('cycle', ids.cycle), await fav('module', ids.module), await fav('project', ids.project)];
    const cycles = items((await t.api.get(`${base}/cycles/`).set(bearer(ada))).body);
    assert.equal(cycles[0].id, ids.cycle);
    assert.deepEqual(
      cycles.map((c) => c.is_favorite),
      cycles.map((c) => c.id === ids.cycle),
    );
    assert.equal(cycles.find((c) => c.id === newerCycle.body.id)!.is_favorite, false);
    assert.equal((await t.api.get(`${base}/cycles/${ids.cycle}/`).set(bearer(ada))).body.is_favorite, true);
    const patched = await t.api.patch(`${base}/cycles/${ids.cycle}/`).set(bearer(ada)).send({ description: 'd' });
    assert.equal(patched.body.is_favorite, true);
    assert.equal((await t.api.get(`${base}/cycles/${ids.cycle}/`).set(bearer(bob))).body.is_favorite, false);
    const modules = items((await t.api.get(`${base}/modules/`).set(bearer(ada))).body);
    assert.equal(modules[0].id, ids.module);
    assert.equal(modules.find((m) => m.id === newerModule.body.id)!.is_favorite, false);
    assert.equal((await t.api.get(`${base}/modules/${ids.module}/`).set(bearer(ada))).body.is_favorite, true);
    assert.equal((await t.api.get(`${base}/modules/${ids.module}/`).set(bearer(bob))).body.is_favorite, false);
    const bobModules = items((await t.api.get(`${base}/modules/`).set(bearer(bob))).body);
    assert.ok(bobModules.every((m) => m.is_favorite === false));
    const projects = items((await t.api.get(`/api/workspaces/${ws.slug}/projects/`).set(bearer(ada))).body);
    assert.equal(projects.find((p) => p.id === ids.project)!.is_favorite, true);
    assert.equal((await t.api.get(`${base}/`).set(bearer(ada))).body.is_favorite, true);
    assert.equal((await t.api.get(`${base}/`).set(bearer(bob))).body.is_favorite, false);
    // unfavourited: false again
    for (const id of favs) {
      const res = await t.api.delete(`/api/workspaces/${ws.slug}/user-favorites/${id}/`).set(bearer(ada));
      assert.equal(res.status, 204);
    }
    assert.equal((await t.api.get(`${base}/cycles/${ids.cycle}/`).set(bearer(ada))).body.is_favorite, false);
    assert.equal((await t.api.get(`${base}/modules/${ids.module}/`).set(bearer(ada))).body.is_favorite, false);
    assert.equal((await t.api.get(`${base}/`).set(bearer(ada))).body.is_favorite, false);
  });

  it('module detail: link_module holds the module’s links, newest first', async () => {
    const links = `${base}/modules/${ids.module}/module-links/`;
    const first = await t.api.post(links).set(bearer(ada)).send({ url: 'https://example.com/a', title: 'A' });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const second = await t.api.post(links).set(bearer(ada)).send({ url: 'https://example.com/b' });
    const one = await t.api.get(`${base}/modules/${ids.module}/`).set(bearer(ada));
    const got = one.body.link_module as Array<Record<string, unknown>>;
    for (const l of got) assertShape('module link', l, MODULE_LINK);
    assert.deepEqual(
      got.map((l) => l.id),
      [second.body.id, first.body.id],
    );
    assert.deepEqual([got[1].url, got[1].title, got[1].module], ['https://example.com/a', 'A', ids.module]);
    await t.api.delete(`${links}${second.body.id}/`).set(bearer(ada));
    const after = await t.api.get(`${base}/modules/${ids.module}/`).set(bearer(ada));
    assert.deepEqual(
      (after.body.link_module as Array<{ id: string }>).map((l) => l.id),
      [first.body.id],
    );
  });

  it('history: activity_type picks the history rows or the comments, both merged by default; created_at__gt', async () => {
    const history = (query: string) => t.api.get(`${base}/issues/${ids.parent}/history/${query}`).set(bearer(bob));
    const comments = await history('?activity_type=issue-comment');
    assert.equal(comments.status, 200);
    assert.ok(Array.isArray(comments.body));
    assert.deepEqual(
      comments.body.map((c: { id: string }) => c.id),
      [ids.comment],
    );
    const c = comments.body[0];
    assertShape('history comment', c, COMMENT);
    assertShape('history comment actor_detail', c.actor_detail, USER_LITE);
    assertShape('comment issue_detail', c.issue_detail, ISSUE_FLAT);
    assertShape('comment project_detail', c.project_detail, PROJECT_LITE);
    assertShape('comment workspace_detail', c.workspace_detail, WORKSPACE_LITE);
    assert.deepEqual(
      [c.workspace_detail.slug, c.project_detail.id, c.issue_detail.id],
      [ws.slug, ids.project, ids.parent],
    );
    assert.equal(c.comment_reactions.length, 1);
    assertShape('history comment reaction', c.comment_reactions[0], COMMENT_REACTION);
    const rows = await history('?activity_type=issue-property');
    assert.equal(rows.status, 200);
    assert.ok(rows.body.length > 0);
    for (const a of rows.body) assertShape('history row', a, ACTIVITY);
    assert.ok(rows.body.every((a: { field: string | null }) => a.field !== 'comment'));
    assert.equal(rows.body[0].project_detail.identifier, 'SHAPE');
    assert.equal(rows.body[0].actor_detail.id, ada.userId);
    assert.equal(rows.body[0].source_data, null);
    const both = await history('');
    assert.equal(both.status, 200);
    assert.equal(both.body.length, rows.body.length + 1);
    const times = both.body.map((x: { created_at: string }) => x.created_at);
    assert.deepEqual(times, [...times].sort(), 'oldest first');
    assert.ok(both.body.some((x: { id: string; comment_html?: string }) => x.id === ids.comment && x.comment_html));
    const newest = await history('?order_by=-created_at');
    assert.deepEqual(
      newest.body.map((x: { id: string }) => x.id),
      both.body.map((x: { id: string }) => x.id).reverse(),
    );
    // the web app asks for what came after the newest comment it has
    const more = await t.api
      .post(`${base}/issues/${ids.parent}/comments/`)
      .set(bearer(bob))
      .send({ comment_html: '<p>later</p>' });
    const since = await history(`?activity_type=issue-comment&created_at__gt=${encodeURIComponent(c.created_at)}`);
    assert.deepEqual(
      since.body.map((x: { id: string }) => x.id),
      [more.body.id],
    );
    const sinceRows = await history(`?activity_type=issue-property&created_at__gt=${encodeURIComponent(c.created_at)}`);
    assert.ok(sinceRows.body.every((a: { created_at: string }) => a.created_at > c.created_at));
    assert.equal((await history('?created_at__gt=yesterday')).status, 400);
    // an intake work item carries where it came from
    const report = await t.api
      .post(`${base}/intake-issues/`)
      .set(bearer(bob))
      .send({ issue: { name: 'Via intake' } });
    const reportRows = await t.api
      .get(`${base}/issues/${report.body.issue.id}/history/?activity_type=issue-property`)
      .set(bearer(ada));
    assert.equal(reportRows.status, 200, JSON.stringify(reportRows.body));
    assert.equal(reportRows.body[0].source_data.source, 'IN_APP');
  });
});
