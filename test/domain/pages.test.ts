import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppProjectService, PageService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { addWorkspaceMember, domainSuite, ProjectContext, rejectsWith, Seeded } from '../support/domain-fixtures';

describe('domain: page rules (PageService): lock, access, archive with sub-pages, delete only archived', () => {
  let d: DomainContext;
  let pages: PageService;
  let p: Seeded;
  let owner: ProjectContext;
  let member: typeof owner;
  domainSuite({ projects: 1 }, async (s) => {
    ({
      d,
      seeded: [p],
    } = s);
    pages = d.get(PageService);
    owner = p.ctx;
    const m = await addWorkspaceMember(d, p.workspaceId, p, 15);
    await d.get(AppProjectService).join(p.workspaceId, { userId: m.userId, workspaceRole: 15 }, [p.projectId]);
    member = { ...owner, userId: m.userId, role: 15 };
  });

  const row = async (id: string) =>
    (
      await d.sql<{ name: string; archived_at: string | null; parent_id: string | null; is_locked: boolean }>(
        'SELECT name, archived_at, parent_id, is_locked FROM pages WHERE id = $1',
        [id],
      )
    )[0];

  it('a locked page cannot be edited, by anyone; only its creator or an Admin locks it', async () => {
    const page = await pages.create(owner, { name: 'Runbook' });
    const id = page.id as string;
    await rejectsWith(pages.setLocked(member, id, true), 'PERMISSION_DENIED');
    await pages.setLocked(owner, id, true);
    await rejectsWith(pages.update(member, id, { name: 'Edited' }), 'PAGE_LOCKED');
    await rejectsWith(pages.update(owner, id, { name: 'Edited' }), 'PAGE_LOCKED');
    assert.equal((await row(id)).name, 'Runbook');
    await pages.setLocked(owner, id, false);
    assert.equal((await pages.update(member, id, { name: 'Edited' })).name, 'Edited');
  });

  it("only the owner changes a page's access; a private page is hidden from the others", async () => {
    const page = await pages.create(owner, { name: 'Notes', access: 0 });
    const id = page.id as string;
    await rejectsWith(pages.update(member, id, { access: 1 }), 'PAGE_ACCESS_OWNER_ONLY');
    await pages.setAccess(owner, id, 1);
    await rejectsWith(pages.retrieve(member, id), 'NOT_FOUND');
    assert.equal((await pages.retrieve(owner, id)).id, id);
    assert.ok(!(await pages.list(member)).some((x) => x.id === id));
  });

  it('archive takes the sub-pages along; a sub-page restored alone becomes top-level; delete needs archived', async () => {
    const parent = (await pages.create(owner, { name: 'Parent' })).id as string;
    const child = (await pages.create(owner, { name: 'Child', parent })).id as string;
    await rejectsWith(pages.update(owner, parent, { parent }), 'VALIDATION_ERROR');
    await rejectsWith(pages.remove(owner, parent), 'PAGE_NOT_ARCHIVED');
    await rejectsWith(pages.archive(member, parent), 'PERMISSION_DENIED');
    await pages.archive(owner, parent);
    assert.ok((await row(parent)).archived_at);
    assert.ok((await row(child)).archived_at, 'the sub-page is archived too');
    await pages.unarchive(owner, child);
    assert.deepEqual(
      { archived: (await row(child)).archived_at, parent: (await row(child)).parent_id },
      { archived: null, parent: null },
    );
    await pages.remove(owner, parent);
    await rejectsWith(pages.retrieve(owner, parent), 'NOT_FOUND');
    assert.equal((await pages.retrieve(owner, child)).id, child);
  });
});
