import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { parseCursor } from '#common';
import { StickyService } from '#domain';
import { addWorkspaceMember, domainSuite, rejectsWith, Seeded } from '../support/domain-fixtures';
import type { DomainContext } from '../support/domain-context';

describe('domain: sticky rules (StickyService): the owner only, order, search, soft delete', () => {
  let d: DomainContext;
  let stickies: StickyService;
  let p: Seeded;
  let other: Seeded;
  domainSuite({ projects: 2 }, (s) => {
    ({ d, p, other } = s);
    stickies = d.get(StickyService);
  });

  it('a new sticky goes above the owner’s others (sort_order +10000), with its text stripped; every field is optional', async () => {
    const first = await stickies.create(p.workspaceId, p.userId, {});
    assert.equal(first.name, null);
    assert.equal(first.description_html, '<p></p>');
    assert.equal(first.owner, p.userId);
    const second = await stickies.create(p.workspaceId, p.userId, {
      name: 'Groceries',
      description_html: '<p>Milk <b>and</b> eggs</p>',
    });
    assert.equal(second.sort_order, first.sort_order + 10000);
    assert.equal(second.description_stripped, 'Milk and eggs');
    const chosen = await stickies.create(p.workspaceId, p.userId, { sort_order: 5 });
    assert.equal(chosen.sort_order, 5);
    // the next default is counted from the highest, not the last
    const next = await stickies.create(p.workspaceId, p.userId, {});
    assert.equal(next.sort_order, second.sort_order + 10000);
    // another owner's order starts afresh
    const theirs = await stickies.create(other.workspaceId, other.userId, {});
    assert.equal(theirs.sort_order, 65535);
  });

  it('another user’s sticky, even a workspace Admin’s teammate’s, or one of another workspace, is NOT_FOUND and left as it was', async () => {
    const mine = await stickies.create(p.workspaceId, p.userId, { name: 'Mine' });
    const mate = await addWorkspaceMember(d, p.workspaceId, p, 15);
    await rejectsWith(stickies.retrieve(p.workspaceId, mate.userId, mine.id), 'NOT_FOUND');
    await rejectsWith(stickies.update(p.workspaceId, mate.userId, mine.id, { name: 'Taken' }), 'NOT_FOUND');
    await rejectsWith(stickies.remove(p.workspaceId, mate.userId, mine.id), 'NOT_FOUND');
    // the right owner through a foreign workspace
    await rejectsWith(stickies.retrieve(other.workspaceId, p.userId, mine.id), 'NOT_FOUND');
    await rejectsWith(stickies.retrieve(p.workspaceId, p.userId, randomUUID()), 'NOT_FOUND');
    assert.equal((await stickies.retrieve(p.workspaceId, p.userId, mine.id)).name, 'Mine');
    const theirList = await stickies.list(p.workspaceId, mate.userId, { perPage: 50 });
    assert.equal(
      theirList.results.some((s) => s.id === mine.id),
      false,
    );
  });

  it('lists newest first in pages; search matches the name or the text, case-insensitively, with % and _ literal', async () => {
    const mate = await addWorkspaceMember(d, p.workspaceId, p, 15);
    const made: string[] = [];
    for (const [name, html] of [
      ['Alpha', '<p>first</p>'],
      ['beta', '<p>mentions ALPHA inside</p>'],
      ['100% done', '<p>x</p>'],
      ['100 done', '<p>y</p>'],
      ['a_b', '<p>z</p>'],
    ])
      made.push((await stickies.create(p.workspaceId, mate.userId, { name, description_html: html })).id);
    const all = await stickies.list(p.workspaceId, mate.userId, { perPage: 50 });
    assert.deepEqual(
      all.results.map((s) => s.id),
      [...made].reverse(),
    );
    const first = await stickies.list(p.workspaceId, mate.userId, { perPage: 2 });
    assert.equal(first.totalCount, 5);
    assert.deepEqual(
      first.results.map((s) => s.id),
      [made[4], made[3]],
    );
    assert.ok(first.nextCursor);
    const second = await stickies.list(p.workspaceId, mate.userId, {
      perPage: 2,
      cursor: parseCursor(first.nextCursor),
    });
    assert.deepEqual(
      second.results.map((s) => s.id),
      [made[2], made[1]],
    );
    const alpha = await stickies.list(p.workspaceId, mate.userId, { perPage: 50 }, 'alpha');
    assert.deepEqual(alpha.results.map((s) => s.id).sort(), [made[0], made[1]].sort());
    const percent = await stickies.list(p.workspaceId, mate.userId, { perPage: 50 }, '0%');
    assert.deepEqual(
      percent.results.map((s) => s.id),
      [made[2]],
    );
    const underscore = await stickies.list(p.workspaceId, mate.userId, { perPage: 50 }, '_');
    assert.deepEqual(
      underscore.results.map((s) => s.id),
      [made[4]],
    );
  });

  it('an update changes only what it is given and restrips the text; a deleted sticky is soft-deleted and gone from reads', async () => {
    const s = await stickies.create(p.workspaceId, p.userId, {
      name: 'Keep',
      color: '#fff',
      description_html: '<p>old</p>',
    });
    const changed = await stickies.update(p.workspaceId, p.userId, s.id, {
      description_html: '<p>new <i>text</i></p>',
    });
    assert.equal(changed.name, 'Keep');
    assert.equal(changed.color, '#fff');
    assert.equal(changed.description_stripped, 'new text');
    const cleared = await stickies.update(p.workspaceId, p.userId, s.id, { description_html: '' });
    assert.equal(cleared.description_html, '<p></p>');
    await stickies.remove(p.workspaceId, p.userId, s.id);
    await rejectsWith(stickies.retrieve(p.workspaceId, p.userId, s.id), 'NOT_FOUND');
    await rejectsWith(stickies.remove(p.workspaceId, p.userId, s.id), 'NOT_FOUND');
    const [row] = await d.sql<{ deleted: boolean }>(
      'SELECT deleted_at IS NOT NULL AS deleted FROM stickies WHERE id = $1',
      [s.id],
    );
    assert.deepEqual(row, { deleted: true });
    const list = await stickies.list(p.workspaceId, p.userId, { perPage: 100 });
    assert.equal(
      list.results.some((x) => x.id === s.id),
      false,
    );
  });
});
