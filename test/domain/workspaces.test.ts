import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InstanceSettings, WorkspaceService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { addWorkspaceMember, domainSuite, rejectsWith, Seeded } from '../support/domain-fixtures';
import { unique } from '../support/fixtures';

describe('domain: workspace rules (WorkspaceService): slugs, the creator an Admin, creation switched off, the caller’s list', () => {
  let d: DomainContext;
  let workspaces: WorkspaceService;
  let p: Seeded;
  let other: Seeded;
  let slug: string;
  domainSuite({ projects: 2 }, async (s) => {
    ({ d, p, other } = s);
    workspaces = d.get(WorkspaceService);
    [{ slug }] = await d.sql<{ slug: string }>('SELECT slug FROM workspaces WHERE id = $1', [p.workspaceId]);
  });

  const countWorkspaces = async () => (await d.sql<{ n: number }>('SELECT COUNT(*)::int AS n FROM workspaces'))[0].n;

  it('the creator is its Admin, in the same transaction; a taken slug (even a deleted workspace’s) or a restricted one is refused with nothing written', async () => {
    const fresh = unique('ws-');
    const made = await workspaces.create(p.userId, { name: 'Second', slug: fresh });
    const [member] = await d.sql<{ role: number; is_active: boolean }>(
      'SELECT role, is_active FROM workspace_members WHERE workspace_id = $1 AND member_id = $2',
      [made.id, p.userId],
    );
    assert.deepEqual(member, { role: 20, is_active: true });
    const before = await countWorkspaces();
    await rejectsWith(workspaces.create(other.userId, { name: 'Copy', slug: fresh }), 'WORKSPACE_SLUG_TAKEN');
    await rejectsWith(workspaces.create(other.userId, { name: 'Api', slug: 'api' }), 'VALIDATION_ERROR');
    await d.sql('UPDATE workspaces SET deleted_at = now() WHERE id = $1', [made.id]);
    await rejectsWith(workspaces.create(other.userId, { name: 'Reuse', slug: fresh }), 'WORKSPACE_SLUG_TAKEN');
    assert.equal(await countWorkspaces(), before);
    const orphans = await d.sql(
      'SELECT 1 FROM workspace_members m LEFT JOIN workspaces w ON w.id = m.workspace_id WHERE w.id IS NULL',
    );
    assert.deepEqual(orphans, []);
  });

  it('while DISABLE_WORKSPACE_CREATION is on, only an instance admin creates one', async () => {
    await d.get(InstanceSettings).update({ DISABLE_WORKSPACE_CREATION: '1' }, null);
    try {
      await rejectsWith(
        workspaces.create(p.userId, { name: 'Off', slug: unique('ws-') }),
        'WORKSPACE_CREATION_DISABLED',
      );
      const byAdmin = await workspaces.create(p.userId, { name: 'By admin', slug: unique('ws-') }, true);
      assert.equal(byAdmin.name, 'By admin');
    } finally {
      await d.get(InstanceSettings).update({ DISABLE_WORKSPACE_CREATION: null }, null);
    }
  });

  it('lists the live workspaces where the user is an active member, with their role; resolves an exact slug only', async () => {
    const mate = await addWorkspaceMember(d, p.workspaceId, p, 15);
    const theirs = await workspaces.listForUser(mate.userId, { perPage: 50 });
    assert.deepEqual(
      theirs.results.map((w) => [w.id, w.role]),
      [[p.workspaceId, 15]],
    );
    assert.equal(theirs.results[0].total_members, 2);
    const owners = await workspaces.listForUser(other.userId, { perPage: 50 });
    assert.equal(
      owners.results.some((w) => w.id === p.workspaceId),
      false,
    );
    assert.deepEqual(await workspaces.resolve(slug, mate.userId), { workspaceId: p.workspaceId, role: 15 });
    assert.deepEqual(await workspaces.resolve(slug, other.userId), { workspaceId: p.workspaceId, role: null });
    assert.equal((await workspaces.resolve(slug.toUpperCase(), p.userId)).workspaceId, null);
    await d.sql('UPDATE workspace_members SET is_active = false WHERE workspace_id = $1 AND member_id = $2', [
      p.workspaceId,
      mate.userId,
    ]);
    assert.deepEqual((await workspaces.listForUser(mate.userId, { perPage: 50 })).results, []);
  });
});
