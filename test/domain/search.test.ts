import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { CycleService, IssueCommandService, ModuleService, SearchService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { addWorkspaceMember, domainSuite, rejectsWith, Seeded } from '../support/domain-fixtures';

const ids = (rows: unknown[] | undefined) => (rows ?? []).map((r) => (r as { id: string }).id);

describe('domain: search rules (SearchService): only what the caller can see, the picker’s exclusions, entity search', () => {
  let d: DomainContext;
  let search: SearchService;
  let p: Seeded;
  let other: Seeded;
  let identifier: string;
  const issue = async (s: Seeded, name: string, extra: Record<string, unknown> = {}) =>
    (await d.get(IssueCommandService).create(s.ctx, { name, ...extra })).id as string;
  domainSuite({ projects: 2 }, async (s) => {
    ({ d, p, other } = s);
    search = d.get(SearchService);
    [{ identifier }] = await d.sql<{ identifier: string }>('SELECT identifier FROM projects WHERE id = $1', [
      p.projectId,
    ]);
  });

  it('finds work items, cycles and modules by name and a work item by its key; never another workspace’s; nothing for blank text', async () => {
    const mine = await issue(p, 'Zephyr login bug');
    const theirs = await issue(other, 'Zephyr login bug too');
    const cycle = await d.get(CycleService).create(p.ctx, { name: 'Zephyr sprint' });
    const module = await d.get(ModuleService).create(p.ctx, { name: 'Zephyr module' });
    const { results } = await search.global(p.workspaceId, p.userId, 'zephyr');
    assert.deepEqual(ids(results.issue), [mine]);
    assert.deepEqual(ids(results.cycle), [cycle.id]);
    assert.deepEqual(ids(results.module), [module.id]);
    // the other owner, in their workspace, sees only theirs
    const theirView = await search.global(other.workspaceId, other.userId, 'zephyr');
    assert.deepEqual(ids(theirView.results.issue), [theirs]);
    // p's owner asking in the other workspace: not a member, nothing
    const foreign = await search.global(other.workspaceId, p.userId, 'zephyr');
    assert.deepEqual(ids(foreign.results.issue), []);
    assert.deepEqual(foreign.results.project, []);
    const [{ seq }] = await d.sql<{ seq: number }>('SELECT sequence_id AS seq FROM issues WHERE id = $1', [mine]);
    const byKey = await search.global(p.workspaceId, p.userId, `${identifier}-${seq}`);
    assert.ok(ids(byKey.results.issue).includes(mine));
    const blank = await search.global(p.workspaceId, p.userId, '   ');
    assert.deepEqual(blank.results.issue, []);
    assert.deepEqual(blank.results.workspace, []);
  });

  it('a workspace member who has not joined the project finds none of its work items', async () => {
    await issue(p, 'Quasar secret');
    const mate = await addWorkspaceMember(d, p.workspaceId, p, 15);
    const { results } = await search.global(p.workspaceId, mate.userId, 'quasar');
    assert.deepEqual(results.issue, []);
    assert.deepEqual(results.project, []);
    const page = await search.picker(p.workspaceId, p.projectId, mate.userId, { search: 'quasar' });
    assert.deepEqual(page.results, []);
  });

  it('the picker leaves out the item itself, its parent and descendants (for a parent), items in a cycle, items of the module', async () => {
    const root = await issue(p, 'Picker root');
    const child = await issue(p, 'Picker child', { parent: root });
    const grandchild = await issue(p, 'Picker grandchild', { parent: child });
    const loose = await issue(p, 'Picker loose');
    const cycled = await issue(p, 'Picker cycled');
    const cycle = await d.get(CycleService).create(p.ctx, { name: 'Picker cycle' });
    await d.get(CycleService).addIssues(p.ctx, cycle.id, [cycled]);
    const pick = async (q: Parameters<SearchService['picker']>[3]) =>
      ids((await search.picker(p.workspaceId, p.projectId, p.userId, q)).results);

    assert.deepEqual(new Set(await pick({ search: 'picker' })), new Set([root, child, grandchild, loose, cycled]));
    // a new parent for `child`: not itself, not its parent, not its grandchild (a loop)
    assert.deepEqual(new Set(await pick({ search: 'picker', issueId: child, parent: true })), new Set([loose, cycled]));
    // sub-items for `child`: top-level items that are not its ancestors
    assert.deepEqual(
      new Set(await pick({ search: 'picker', issueId: child, subIssue: true })),
      new Set([loose, cycled]),
    );
    assert.equal((await pick({ search: 'picker', cycle: true })).includes(cycled), false);
    const module = await d.get(ModuleService).create(p.ctx, { name: 'Picker module' });
    await d.get(ModuleService).addIssues(p.ctx, module.id, [loose]);
    assert.equal((await pick({ search: 'picker', moduleId: module.id })).includes(loose), false);
    // newest first, without a search text
    assert.deepEqual((await pick({ search: '' }))[0], cycled);
    // a module or work item outside the project
    const theirModule = await d.get(ModuleService).create(other.ctx, { name: 'Their module' });
    await rejectsWith(
      search.picker(p.workspaceId, p.projectId, p.userId, { search: '', moduleId: theirModule.id }),
      'NOT_FOUND',
    );
    const theirIssue = await issue(other, 'Theirs');
    await rejectsWith(
      search.picker(p.workspaceId, p.projectId, p.userId, { search: '', issueId: theirIssue, parent: true }),
      'NOT_FOUND',
    );
  });

  it('entity search: a project the caller is not a member of is NOT_FOUND; unknown kinds left out; at most `count` hits', async () => {
    const scope = { workspaceId: p.workspaceId, userId: p.userId, workspaceRole: 20 };
    await rejectsWith(
      search.entities(scope, { query: '', types: ['issue'], count: 5, projectId: other.projectId }),
      'NOT_FOUND',
    );
    await rejectsWith(
      search.entities(scope, { query: '', types: ['issue'], count: 5, projectId: randomUUID() }),
      'NOT_FOUND',
    );
    for (let k = 0; k < 4; k++) await issue(p, `Nebula ${k}`);
    const out = await search.entities(scope, {
      query: 'nebula',
      types: ['issue', 'bogus', 'project', 'issue'],
      count: 3,
      projectId: p.projectId,
    });
    assert.deepEqual(Object.keys(out).sort(), ['issue', 'project']);
    assert.equal(out.issue?.length, 3);
    assert.deepEqual(out.project, []);
    const mention = await search.entities(scope, { query: '', types: ['user_mention'], count: 10 });
    assert.ok(
      (mention.user_mention as Array<{ member__id: string }>).some((u) => u.member__id === p.userId),
      'the owner is mentionable in their workspace',
    );
    const theirs = await search.entities(
      { workspaceId: other.workspaceId, userId: other.userId, workspaceRole: 20 },
      { query: '', types: ['user_mention'], count: 10 },
    );
    assert.equal(
      (theirs.user_mention as Array<{ member__id: string }>).some((u) => u.member__id === p.userId),
      false,
      'not a member of the other workspace',
    );
  });
});
