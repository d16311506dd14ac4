import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppProjectService, EstimateService, IssueCommandService, ProjectService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { addWorkspaceMember, domainSuite, rejectsWith, Seeded } from '../support/domain-fixtures';
import { unique } from '../support/fixtures';

describe('domain: project rules (ProjectService, AppProjectService): identifiers, names, members, archive', () => {
  let d: DomainContext;
  let projects: ProjectService;
  let p: Seeded;
  let other: Seeded;
  let owner: { userId: string; workspaceRole: number };
  domainSuite({ projects: 2 }, (s) => {
    ({
      d,
      seeded: [p, other],
    } = s);
    projects = d.get(ProjectService);
    owner = p.actor;
  });

  const ident = () =>
    unique('I')
      .replace(/[^A-Za-z0-9]/g, '')
      .slice(-8);

  it('an identifier is trimmed and upper-cased, 1 to 12 characters, one live project each per workspace', async () => {
    const id = ident();
    const made = await projects.create(p.workspaceId, owner, {
      name: `Lower ${id}`,
      identifier: ` ${id.toLowerCase()} `,
    });
    assert.equal(made.identifier, id.toUpperCase());
    const blank = await rejectsWith(
      projects.create(p.workspaceId, owner, { name: 'Blank', identifier: '   ' }),
      'VALIDATION_ERROR',
    );
    assert.deepEqual(blank.extra.errors, { identifier: ['This field may not be blank.'] });
    await rejectsWith(
      projects.create(p.workspaceId, owner, { name: 'Long', identifier: 'ABCDEFGHIJKLM' }),
      'VALIDATION_ERROR',
    );
    await rejectsWith(
      projects.create(p.workspaceId, owner, { name: `Again ${id}`, identifier: id.toLowerCase() }),
      'PROJECT_IDENTIFIER_TAKEN',
    );
    await rejectsWith(
      projects.create(p.workspaceId, owner, { name: ` Lower ${id} `, identifier: ident() }),
      'PROJECT_NAME_TAKEN',
    );
    // another workspace may use both
    await projects.create(other.workspaceId, other.actor, {
      name: `Lower ${id}`,
      identifier: id,
    });
    const apps = d.get(AppProjectService);
    assert.equal((await apps.identifierCheck(p.workspaceId, ` ${id.toLowerCase()}`)).exists, 1);
    await rejectsWith(apps.releaseIdentifier(p.workspaceId, id), 'PROJECT_IDENTIFIER_IN_USE');
    // a deleted project frees its identifier and name at once
    await projects.remove(p.workspaceId, made.id as string, owner);
    assert.equal((await apps.identifierCheck(p.workspaceId, id)).exists, 0);
    await apps.releaseIdentifier(p.workspaceId, id);
    await projects.create(p.workspaceId, owner, { name: `Lower ${id}`, identifier: id });
  });

  it('a new project: Guests may not create; the creator is an Admin; five default states, one default', async () => {
    const guest = await addWorkspaceMember(d, p.workspaceId, p, 5);
    await rejectsWith(
      projects.create(
        p.workspaceId,
        { userId: guest.userId, workspaceRole: 5 },
        { name: 'By guest', identifier: ident() },
      ),
      'PERMISSION_DENIED',
    );
    await rejectsWith(
      projects.create(p.workspaceId, owner, { name: 'Led', identifier: ident(), project_lead: other.userId }),
      'VALIDATION_ERROR',
    );
    const made = await projects.create(p.workspaceId, owner, { name: 'Fresh', identifier: ident() });
    const [member] = await d.sql<{ role: number }>(
      'SELECT role FROM project_members WHERE project_id = $1 AND member_id = $2',
      [made.id, p.userId],
    );
    assert.equal(member.role, 20);
    const states = await d.sql<{ group: string; default: boolean }>(
      'SELECT "group", "default" FROM states WHERE project_id = $1 AND deleted_at IS NULL',
      [made.id],
    );
    assert.deepEqual(states.map((s) => s.group).sort(), ['backlog', 'cancelled', 'completed', 'started', 'unstarted']);
    assert.equal(states.filter((s) => s.default).length, 1);
  });

  it('an archived project refuses changes and work items until it is unarchived', async () => {
    const made = await projects.create(p.workspaceId, owner, { name: 'Shelved', identifier: ident() });
    const projectId = made.id as string;
    await projects.setArchived(p.workspaceId, projectId, owner, true);
    await rejectsWith(projects.update(p.workspaceId, projectId, owner, { name: 'Renamed' }), 'PROJECT_ARCHIVED');
    const ctx = { workspaceId: p.workspaceId, projectId, userId: p.userId, role: 20 };
    await rejectsWith(d.get(IssueCommandService).create(ctx, { name: 'Not now' }), 'PROJECT_ARCHIVED');
    await projects.setArchived(p.workspaceId, projectId, owner, false);
    assert.equal((await projects.update(p.workspaceId, projectId, owner, { name: 'Renamed' })).name, 'Renamed');
  });

  it("a project's estimate must be its own (the kernel's check)", async () => {
    const estimates = d.get(EstimateService);
    const asOwner = (q: typeof p) => ({
      workspaceId: q.workspaceId,
      projectId: q.projectId,
      userId: q.userId,
      role: 20,
    });
    const estimateOfOther = (await estimates.create(asOwner(other), { name: 'Other points', type: 'points' }))
      .id as string;
    const own = (await estimates.create(asOwner(p), { name: 'Own points', type: 'points' })).id as string;
    assert.equal((await projects.update(p.workspaceId, p.projectId, owner, { estimate: own })).estimate, own);
    const err = await rejectsWith(
      projects.update(p.workspaceId, p.projectId, owner, { estimate: estimateOfOther }),
      'VALIDATION_ERROR',
    );
    assert.deepEqual(err.extra.errors, { estimate: ["This estimate is not the project's estimate."] });
  });
});
