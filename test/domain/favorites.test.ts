import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { CycleService, FavoriteService, ViewService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { addWorkspaceMember, domainSuite, rejectsWith, Seeded } from '../support/domain-fixtures';

describe('domain: favourite rules (FavoriteService): what may be favourited, once, folders, the owner only', () => {
  let d: DomainContext;
  let favorites: FavoriteService;
  let p: Seeded;
  let other: Seeded;
  domainSuite({ projects: 2 }, (s) => {
    ({ d, p, other } = s);
    favorites = d.get(FavoriteService);
  });

  it('an entity is favourited once (the second call answers the first row), with its data; a new one goes first', async () => {
    const project = await favorites.create(p.workspaceId, p.userId, {
      entity_type: 'project',
      entity_identifier: p.projectId,
    });
    assert.equal(project.project_id, p.projectId);
    assert.equal(project.entity_data?.id, p.projectId);
    const again = await favorites.create(p.workspaceId, p.userId, {
      entity_type: 'project',
      entity_identifier: p.projectId,
    });
    assert.equal(again.id, project.id);
    const cycle = await d.get(CycleService).create(p.ctx, { name: 'Sprint 1' });
    const fav = await favorites.create(p.workspaceId, p.userId, { entity_type: 'cycle', entity_identifier: cycle.id });
    assert.equal(fav.sequence, project.sequence + 10000);
    assert.equal(fav.entity_data?.name, 'Sprint 1');
    const top = await favorites.list(p.workspaceId, p.userId);
    assert.deepEqual(top.map((f) => f.id).slice(0, 2), [fav.id, project.id]);
    const rows = await d.sql('SELECT 1 FROM user_favorites WHERE user_id = $1 AND entity_identifier = $2', [
      p.userId,
      p.projectId,
    ]);
    assert.equal(rows.length, 1);
    assert.deepEqual(await favorites.favoriteIds(p.userId, 'cycle', [cycle.id, randomUUID()]), new Set([cycle.id]));
  });

  it('an entity of a foreign workspace, of a project the user is not a member of, or unknown is NOT_FOUND, with nothing written', async () => {
    const cycle = await d.get(CycleService).create(other.ctx, { name: 'Theirs' });
    // p's owner through their own workspace, and a foreign workspace's ids
    await rejectsWith(
      favorites.create(p.workspaceId, p.userId, { entity_type: 'project', entity_identifier: other.projectId }),
      'NOT_FOUND',
    );
    await rejectsWith(
      favorites.create(p.workspaceId, p.userId, { entity_type: 'cycle', entity_identifier: cycle.id }),
      'NOT_FOUND',
    );
    // a workspace member who has not joined the project
    const mate = await addWorkspaceMember(d, p.workspaceId, p, 15);
    await rejectsWith(
      favorites.create(p.workspaceId, mate.userId, { entity_type: 'project', entity_identifier: p.projectId }),
      'NOT_FOUND',
    );
    await rejectsWith(
      favorites.create(p.workspaceId, p.userId, { entity_type: 'module', entity_identifier: randomUUID() }),
      'NOT_FOUND',
    );
    // the older per-project route: an entity of another project is not that project's
    const mine = await d.get(CycleService).create(p.ctx, { name: 'Mine' });
    await rejectsWith(favorites.createInProject(p.workspaceId, p.userId, randomUUID(), 'cycle', mine.id), 'NOT_FOUND');
    const written = await d.sql('SELECT 1 FROM user_favorites WHERE user_id = $1 AND entity_identifier = ANY($2)', [
      mate.userId,
      [p.projectId],
    ]);
    assert.equal(written.length, 0);
    const own = await d.sql('SELECT 1 FROM user_favorites WHERE entity_identifier = ANY($1::uuid[])', [
      [cycle.id, mine.id],
    ]);
    assert.equal(own.length, 0);
  });

  it('validations: a folder needs a name, an entity its id, is_folder only with type folder', async () => {
    const noName = await rejectsWith(
      favorites.create(p.workspaceId, p.userId, { entity_type: 'folder', name: '  ' }),
      'VALIDATION_ERROR',
    );
    assert.ok('name' in (noName.extra.errors as object));
    const noId = await rejectsWith(
      favorites.create(p.workspaceId, p.userId, { entity_type: 'project' }),
      'VALIDATION_ERROR',
    );
    assert.ok('entity_identifier' in (noId.extra.errors as object));
    const folderFlag = await rejectsWith(
      favorites.create(p.workspaceId, p.userId, {
        entity_type: 'project',
        entity_identifier: p.projectId,
        is_folder: true,
      }),
      'VALIDATION_ERROR',
    );
    assert.ok('is_folder' in (folderFlag.extra.errors as object));
  });

  it('folders: one level deep, the parent must be the user’s folder; deleting a folder deletes what it holds', async () => {
    const folder = await favorites.create(p.workspaceId, p.userId, { entity_type: 'folder', name: 'Work' });
    const inner = await favorites.create(p.workspaceId, p.userId, { entity_type: 'folder', name: 'Inner' });
    const badNest = await rejectsWith(
      favorites.update(p.workspaceId, p.userId, inner.id, { parent: folder.id }),
      'VALIDATION_ERROR',
    );
    assert.ok('parent' in (badNest.extra.errors as object));
    await rejectsWith(favorites.update(p.workspaceId, p.userId, folder.id, { name: '' }), 'VALIDATION_ERROR');
    const cycle = await d.get(CycleService).create(p.ctx, { name: 'In a folder' });
    const fav = await favorites.create(p.workspaceId, p.userId, {
      entity_type: 'cycle',
      entity_identifier: cycle.id,
      parent: folder.id,
    });
    assert.equal(fav.parent, folder.id);
    // a favourite that is not a folder cannot hold another
    const notFolder = await rejectsWith(
      favorites.create(p.workspaceId, p.userId, { entity_type: 'folder', name: 'X', parent: fav.id }),
      'VALIDATION_ERROR',
    );
    assert.deepEqual(notFolder.extra.errors, { parent: ['The parent must be a folder.'] });
    // another user's folder is not found
    const theirFolder = await favorites.create(other.workspaceId, other.userId, { entity_type: 'folder', name: 'T' });
    await rejectsWith(favorites.update(p.workspaceId, p.userId, fav.id, { parent: theirFolder.id }), 'NOT_FOUND');
    assert.deepEqual(
      (await favorites.group(p.workspaceId, p.userId, folder.id)).map((f) => f.id),
      [fav.id],
    );
    assert.equal(
      (await favorites.list(p.workspaceId, p.userId)).some((f) => f.id === fav.id),
      false,
      'the top level leaves out what folders hold',
    );
    await favorites.remove(p.workspaceId, p.userId, folder.id);
    const left = await d.sql('SELECT id FROM user_favorites WHERE id = ANY($1::uuid[])', [[folder.id, fav.id]]);
    assert.deepEqual(left, []);
  });

  it('another user’s favourite is NOT_FOUND to read, change or delete; a deleted view takes everyone’s favourites of it', async () => {
    const folder = await favorites.create(p.workspaceId, p.userId, { entity_type: 'folder', name: 'Private' });
    await rejectsWith(favorites.group(other.workspaceId, other.userId, folder.id), 'NOT_FOUND');
    await rejectsWith(favorites.update(p.workspaceId, other.userId, folder.id, { name: 'Mine now' }), 'NOT_FOUND');
    await rejectsWith(favorites.remove(p.workspaceId, other.userId, folder.id), 'NOT_FOUND');
    assert.equal((await favorites.group(p.workspaceId, p.userId, folder.id)).length, 0);

    const views = d.get(ViewService);
    const scope = p.ctx;
    const view = await views.create(scope, { name: 'Open bugs' });
    await favorites.create(p.workspaceId, p.userId, { entity_type: 'view', entity_identifier: view.id as string });
    await views.remove(scope, view.id as string);
    const left = await d.sql('SELECT 1 FROM user_favorites WHERE entity_identifier = $1', [view.id]);
    assert.equal(left.length, 0);
    await rejectsWith(
      favorites.removeEntity(p.workspaceId, p.userId, 'view', view.id as string, p.projectId),
      'NOT_FOUND',
    );
  });
});
