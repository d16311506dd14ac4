import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import JSZip from 'jszip';
import { ExporterService, IssueCommandService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { addWorkspaceMember, domainSuite, rejectsWith, Seeded } from '../support/domain-fixtures';

describe('domain: work item export rules (ExporterService): the request, who reads it, the file, the audit', () => {
  let d: DomainContext;
  let exporter: ExporterService;
  let p: Seeded;
  let other: Seeded;
  let slug: string;
  // no runner loop: the test writes the exports itself (`runNext`)
  domainSuite({ projects: 2, env: { JOBS_RUNNER: 'false' } }, async (s) => {
    ({ d, p, other } = s);
    exporter = d.get(ExporterService);
    [{ slug }] = await d.sql<{ slug: string }>('SELECT slug FROM workspaces WHERE id = $1', [p.workspaceId]);
  });

  const exportsOf = (userId: string) =>
    d.sql<{ id: string; project: string[]; status: string; provider: string }>(
      'SELECT id, project, status, provider FROM exporters WHERE initiated_by_id = $1 ORDER BY created_at',
      [userId],
    );

  it('refuses an unknown provider, project ids that are not UUIDs, a project of another workspace; nothing is recorded', async () => {
    await rejectsWith(exporter.request(p.workspaceId, p.userId, { provider: 'pdf' }), 'EXPORT_PROVIDER_NOT_FOUND');
    await rejectsWith(exporter.request(p.workspaceId, p.userId, {}), 'EXPORT_PROVIDER_NOT_FOUND');
    await rejectsWith(
      exporter.request(p.workspaceId, p.userId, { provider: 'csv', project: 'not-a-list' }),
      'VALIDATION_ERROR',
    );
    await rejectsWith(
      exporter.request(p.workspaceId, p.userId, { provider: 'csv', project: ['x'] }),
      'VALIDATION_ERROR',
    );
    await rejectsWith(
      exporter.request(p.workspaceId, p.userId, { provider: 'csv', multiple: 'yes' }),
      'VALIDATION_ERROR',
    );
    await rejectsWith(
      exporter.request(p.workspaceId, p.userId, { provider: 'csv', project: [other.projectId] }),
      'PROJECT_NOT_FOUND',
    );
    await rejectsWith(
      exporter.request(p.workspaceId, p.userId, { provider: 'csv', project: [randomUUID()] }),
      'PROJECT_NOT_FOUND',
    );
    assert.deepEqual(await exportsOf(p.userId), []);
  });

  it('an export of the caller’s projects is queued with an audit row, written by the runner into a zip of the work items, and downloaded (audited)', async () => {
    await d.get(IssueCommandService).create(p.ctx, { name: 'Exported item' });
    await d.get(IssueCommandService).create(other.ctx, { name: 'Foreign item' });
    await exporter.request(p.workspaceId, p.userId, { provider: 'csv' });
    const [queued] = await exportsOf(p.userId);
    assert.equal(queued.status, 'queued');
    assert.deepEqual(queued.project, [p.projectId]);
    const [started] = await d.sql<{ actor_id: string }>(
      "SELECT actor_id FROM audit_logs WHERE event = 'export.started' AND target_id = $1",
      [queued.id],
    );
    assert.equal(started?.actor_id, p.userId);
    // not completed yet: no file
    await rejectsWith(exporter.download(p.workspaceId, p.userId, queued.id), 'NOT_FOUND');

    assert.equal(await exporter.runNext(new AbortController().signal), 1);
    const [done] = await exportsOf(p.userId);
    assert.equal(done.status, 'completed');
    const file = await exporter.download(p.workspaceId, p.userId, queued.id);
    assert.ok(file.data, 'local storage answers the bytes');
    const zip = await JSZip.loadAsync(file.data);
    const names = Object.keys(zip.files);
    assert.equal(names.length, 1);
    const csv = await zip.files[names[0]].async('string');
    assert.match(csv, /Exported item/);
    assert.doesNotMatch(csv, /Foreign item/);
    const downloaded = await d.sql("SELECT 1 FROM audit_logs WHERE event = 'export.downloaded' AND target_id = $1", [
      queued.id,
    ]);
    assert.equal(downloaded.length, 1);
    const page = await exporter.list(p.workspaceId, p.userId, slug, { perPage: 10 });
    assert.equal(page.results[0].id, queued.id);
    assert.match(
      page.results[0].url ?? '',
      new RegExp(`/api/workspaces/${slug}/export-issues/${queued.id}/download/$`),
    );
    assert.equal(await exporter.runNext(new AbortController().signal), 0, 'nothing left to write');
  });

  it('a member who is not in the exported project neither lists nor downloads it; another workspace never reaches it; their own export leaves the project out', async () => {
    const [mine] = (await exportsOf(p.userId)).filter((e) => e.status === 'completed');
    const mate = await addWorkspaceMember(d, p.workspaceId, p, 15);
    const theirList = await exporter.list(p.workspaceId, mate.userId, slug, { perPage: 10 });
    assert.equal(
      theirList.results.some((e) => e.id === mine.id),
      false,
    );
    await rejectsWith(exporter.download(p.workspaceId, mate.userId, mine.id), 'NOT_FOUND');
    await rejectsWith(exporter.download(other.workspaceId, other.userId, mine.id), 'NOT_FOUND');
    await exporter.request(p.workspaceId, mate.userId, { provider: 'json', project: [p.projectId] });
    const [theirs] = await exportsOf(mate.userId);
    assert.deepEqual(theirs.project, [], 'a project they are not an active member of is left out');
    assert.equal(theirs.provider, 'json');
  });
});
