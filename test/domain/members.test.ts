import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppProjectService, WorkspaceMemberService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { addWorkspaceMember, domainSuite, rejectsWith, Seeded } from '../support/domain-fixtures';

describe('domain: workspace member rules (WorkspaceMemberService): role changes, the last Admin, removal', () => {
  let d: DomainContext;
  let members: WorkspaceMemberService;
  let p: Seeded;
  let ownerRow: string;
  domainSuite({ projects: 1 }, async (s) => {
    ({
      d,
      seeded: [p],
    } = s);
    members = d.get(WorkspaceMemberService);
    [{ id: ownerRow }] = await d.sql<{ id: string }>(
      'SELECT id FROM workspace_members WHERE workspace_id = $1 AND member_id = $2',
      [p.workspaceId, p.userId],
    );
  });

  const owner = () => ({ userId: p.userId, role: 20 });
  const roleOf = async (rowId: string) =>
    (
      await d.sql<{ role: number; is_active: boolean }>('SELECT role, is_active FROM workspace_members WHERE id = $1', [
        rowId,
      ])
    )[0];

  it('nobody changes their own role, nor gives or changes a role above their own', async () => {
    const member = await addWorkspaceMember(d, p.workspaceId, p, 15);
    const guest = await addWorkspaceMember(d, p.workspaceId, p, 5);
    await rejectsWith(members.updateRole(p.workspaceId, owner(), ownerRow, 15), 'PERMISSION_DENIED');
    const asMember = { userId: member.userId, role: 15 };
    await rejectsWith(members.updateRole(p.workspaceId, asMember, guest.memberRowId, 20), 'PERMISSION_DENIED');
    await rejectsWith(members.updateRole(p.workspaceId, asMember, ownerRow, 5), 'PERMISSION_DENIED');
    assert.equal((await roleOf(guest.memberRowId)).role, 5);
    await members.updateRole(p.workspaceId, asMember, guest.memberRowId, 15);
    assert.equal((await roleOf(guest.memberRowId)).role, 15);
  });

  it('the last active Admin cannot be demoted, removed or leave; with a second Admin they can', async () => {
    const second = await addWorkspaceMember(d, p.workspaceId, p, 20);
    const asSecond = { userId: second.userId, role: 20 };
    await members.updateRole(p.workspaceId, owner(), second.memberRowId, 15);
    // now the owner is the only Admin
    await rejectsWith(members.leave(p.workspaceId, p.userId), 'LAST_WORKSPACE_ADMIN');
    await members.updateRole(p.workspaceId, owner(), second.memberRowId, 20);
    await members.updateRole(p.workspaceId, asSecond, ownerRow, 15);
    assert.equal((await roleOf(ownerRow)).role, 15);
    await rejectsWith(members.leave(p.workspaceId, second.userId), 'LAST_WORKSPACE_ADMIN');
    await members.updateRole(p.workspaceId, asSecond, ownerRow, 20);
  });

  it('removal: not oneself, not a higher role; the member and their project memberships go inactive', async () => {
    const member = await addWorkspaceMember(d, p.workspaceId, p, 15);
    await rejectsWith(members.remove(p.workspaceId, owner(), ownerRow), 'CANNOT_REMOVE_SELF');
    await rejectsWith(
      members.remove(p.workspaceId, { userId: member.userId, role: 15 }, ownerRow),
      'PERMISSION_DENIED',
    );
    await d.get(AppProjectService).join(p.workspaceId, { userId: member.userId, workspaceRole: 15 }, [p.projectId]);
    await members.remove(p.workspaceId, owner(), member.memberRowId);
    assert.equal((await roleOf(member.memberRowId)).is_active, false);
    const projects = await d.sql<{ is_active: boolean }>(
      'SELECT is_active FROM project_members WHERE project_id = $1 AND member_id = $2',
      [p.projectId, member.userId],
    );
    assert.deepEqual(
      projects.map((r) => r.is_active),
      [false],
    );
    await rejectsWith(members.remove(p.workspaceId, owner(), member.memberRowId), 'NOT_FOUND');
  });
});
