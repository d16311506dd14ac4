import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { ImporterService, IssueCommandService, ProjectService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { addWorkspaceMember, domainSuite, rejectsWith, Seeded } from '../support/domain-fixtures';
import { unique } from '../support/fixtures';

describe('domain: what an import needs (ImporterService): the target, people by email, origins already imported', () => {
  let d: DomainContext;
  let importer: ImporterService;
  let p: Seeded;
  let other: Seeded;
  let slug: string;
  domainSuite({ projects: 2 }, async (s) => {
    ({ d, p, other } = s);
    importer = d.get(ImporterService);
    [{ slug }] = await d.sql<{ slug: string }>('SELECT slug FROM workspaces WHERE id = $1', [p.workspaceId]);
  });

  it('the target: an unknown workspace or user is NOT_FOUND; the import acts as an active Admin only', async () => {
    await rejectsWith(importer.target(`no-${randomUUID().slice(0, 8)}`), 'NOT_FOUND');
    await rejectsWith(importer.target(slug, 'nobody@example.com'), 'NOT_FOUND');
    const owner = await importer.target(slug);
    assert.deepEqual([owner.workspace.id, owner.userId], [p.workspaceId, p.userId]);
    assert.equal((await importer.target(slug, ` ${p.email.toUpperCase()} `)).userId, p.userId);
    const member = await addWorkspaceMember(d, p.workspaceId, p, 15);
    await rejectsWith(importer.target(slug, member.email), 'PERMISSION_DENIED');
    // an Admin of another workspace is nobody here
    await rejectsWith(importer.target(slug, other.email), 'PERMISSION_DENIED');
  });

  it('people: an unknown email becomes a user without a password, unverified; a known one is reused; each becomes a member once', async () => {
    await rejectsWith(
      importer.ensureMember(p.workspaceId, p.userId, { email: 'not an email', role: 15 }),
      'VALIDATION_ERROR',
    );
    const email = `${unique('imported')}@Example.com`;
    const first = await importer.ensureMember(p.workspaceId, p.userId, {
      email: ` ${email} `,
      first_name: 'Imported',
      role: 5,
    });
    assert.deepEqual([first.user, first.member], ['created', 'created']);
    const [user] = await d.sql<{
      email: string;
      password_hash: string | null;
      is_email_verified: boolean;
      display_name: string;
    }>('SELECT email, password_hash, is_email_verified, display_name FROM users WHERE id = $1', [first.userId]);
    assert.deepEqual(user, {
      email: email.toLowerCase(),
      password_hash: null,
      is_email_verified: false,
      display_name: email.toLowerCase().split('@')[0],
    });
    const again = await importer.ensureMember(p.workspaceId, p.userId, { email: email.toUpperCase(), role: 20 });
    assert.deepEqual([again.userId, again.user, again.member], [first.userId, 'existing', 'existing']);
    const [member] = await d.sql<{ role: number }>(
      'SELECT role FROM workspace_members WHERE workspace_id = $1 AND member_id = $2',
      [p.workspaceId, first.userId],
    );
    assert.equal(member.role, 5, 'an existing member keeps their role');
    // a user of another workspace is reused and joins with the role given; an unknown role is Member
    const theirs = await importer.ensureMember(p.workspaceId, p.userId, { email: other.email, role: 99 });
    assert.deepEqual([theirs.userId, theirs.user, theirs.member], [other.userId, 'existing', 'created']);
    const [joined] = await d.sql<{ role: number; is_active: boolean }>(
      'SELECT role, is_active FROM workspace_members WHERE workspace_id = $1 AND member_id = $2',
      [p.workspaceId, other.userId],
    );
    assert.deepEqual(joined, { role: 15, is_active: true });
  });

  it('origins: what came from a source is found by its external id in its scope only, deleted rows left out', async () => {
    const project = await d.get(ProjectService).create(p.workspaceId, p.actor, {
      name: 'Imported project',
      identifier: 'IMP',
      external_source: 'plane',
      external_id: 'src-project-1',
    });
    const ctx = { ...p.ctx, projectId: project.id as string };
    const kept = await d
      .get(IssueCommandService)
      .create(ctx, { name: 'a', external_source: 'plane', external_id: 'src-1' });
    const gone = await d
      .get(IssueCommandService)
      .create(ctx, { name: 'b', external_source: 'plane', external_id: 'src-2' });
    await d.get(IssueCommandService).create(ctx, { name: 'c', external_source: 'jira', external_id: 'src-3' });
    await d.get(IssueCommandService).remove(ctx, gone.id as string);
    assert.deepEqual(
      await importer.externalIds('project', p.workspaceId, 'plane'),
      new Map([['src-project-1', project.id]]),
    );
    assert.deepEqual(await importer.externalIds('project', other.workspaceId, 'plane'), new Map());
    assert.deepEqual(await importer.externalIds('issue', project.id as string, 'plane'), new Map([['src-1', kept.id]]));
    assert.equal(importer.relatedPair('b', 'a'), importer.relatedPair('a', 'b'));
    assert.notEqual(importer.relatedPair('a', 'b'), importer.relatedPair('a', 'c'));
  });
});
