import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LabelService, StateService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { domainSuite, rejectsWith, Seeded } from '../support/domain-fixtures';

describe('domain: states and labels (StateService, LabelService)', () => {
  let d: DomainContext;
  let states: StateService;
  let labels: LabelService;
  let p: Seeded;
  let other: Seeded;
  domainSuite({ projects: 2 }, (s) => {
    ({
      d,
      seeded: [p, other],
    } = s);
    states = d.get(StateService);
    labels = d.get(LabelService);
  });

  const defaults = (projectId: string) =>
    d.sql<{ id: string }>('SELECT id FROM states WHERE project_id = $1 AND "default" AND deleted_at IS NULL', [
      projectId,
    ]);

  it('a new state goes 15000 after the highest sequence, and `default: true` makes it the only default, which cannot be deleted', async () => {
    const [{ max }] = await d.sql<{ max: number }>('SELECT MAX(sequence) AS max FROM states WHERE project_id = $1', [
      p.projectId,
    ]);
    assert.equal((await defaults(p.projectId)).length, 1, 'a new project has one default state');
    const state = await states.create(p.workspaceId, p.projectId, p.userId, {
      name: 'Review',
      color: '#123456',
      default: true,
    });
    assert.equal(Number(state.sequence), Number(max) + 15000);
    assert.deepEqual(
      (await defaults(p.projectId)).map((s) => s.id),
      [state.id],
    );
    await rejectsWith(states.remove(p.projectId, state.id, p.userId), 'DEFAULT_STATE_NOT_DELETABLE');
    assert.equal((await states.retrieve(p.projectId, state.id)).id, state.id);
  });

  it('two creates of one name at once: one state, one STATE_NAME_TAKEN, and the loser changed no default', async () => {
    const before = (await defaults(p.projectId)).map((s) => s.id);
    const results = await Promise.allSettled([
      states.create(p.workspaceId, p.projectId, p.userId, { name: 'Twice', color: '#000000', default: true }),
      states.create(p.workspaceId, p.projectId, p.userId, { name: ' Twice ', color: '#000000', default: true }),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.equal(won.length, 1);
    assert.equal(lost.length, 1);
    assert.equal((lost[0].reason as { code?: string }).code, 'STATE_NAME_TAKEN');
    const winner = (won[0] as PromiseFulfilledResult<{ id: string }>).value.id;
    assert.notDeepEqual(before, [winner]);
    assert.deepEqual(
      (await defaults(p.projectId)).map((s) => s.id),
      [winner],
    );
    const named = await d.sql('SELECT 1 FROM states WHERE project_id = $1 AND name = $2', [p.projectId, 'Twice']);
    assert.equal(named.length, 1);
    // the name is free in another project
    await states.create(other.workspaceId, other.projectId, other.userId, { name: 'Twice', color: '#000000' });
  });

  it('a taken state name on update is STATE_NAME_TAKEN with the holder, and nothing of the update is written', async () => {
    const a = await states.create(p.workspaceId, p.projectId, p.userId, { name: 'Alpha', color: '#111111' });
    const b = await states.create(p.workspaceId, p.projectId, p.userId, { name: 'Beta', color: '#222222' });
    const err = await rejectsWith(
      states.update(p.projectId, b.id, p.userId, { name: 'Alpha ', color: '#333333' }),
      'STATE_NAME_TAKEN',
    );
    assert.equal(err.extra.id, a.id);
    const kept = await states.retrieve(p.projectId, b.id);
    assert.equal(kept.name, 'Beta');
    assert.equal(kept.color, '#222222');
  });

  it('labels: sort order 65535 then +10000; a parent must be of the project and no label its own ancestor; removing a parent frees its children', async () => {
    const top = await labels.create(p.workspaceId, p.projectId, p.userId, { name: 'Area' });
    assert.equal(Number(top.sort_order), 65535);
    const child = await labels.create(p.workspaceId, p.projectId, p.userId, { name: 'Area/API', parent: top.id });
    assert.equal(Number(child.sort_order), 75535);
    assert.equal(child.parent, top.id);
    const grandchild = await labels.create(p.workspaceId, p.projectId, p.userId, {
      name: 'Area/API/v1',
      parent: child.id,
    });

    const elsewhere = await labels.create(other.workspaceId, other.projectId, other.userId, { name: 'Foreign' });
    const foreign = await rejectsWith(
      labels.create(p.workspaceId, p.projectId, p.userId, { name: 'Stray', parent: elsewhere.id }),
      'VALIDATION_ERROR',
    );
    assert.ok((foreign.extra.errors as Record<string, string[]>).parent);
    await rejectsWith(labels.update(p.projectId, top.id, p.userId, { parent: grandchild.id }), 'VALIDATION_ERROR');
    assert.equal((await labels.retrieve(p.projectId, top.id)).parent, null);
    await rejectsWith(labels.create(p.workspaceId, p.projectId, p.userId, { name: ' Area ' }), 'LABEL_NAME_TAKEN');

    await labels.remove(p.projectId, top.id, p.userId);
    await rejectsWith(labels.retrieve(p.projectId, top.id), 'NOT_FOUND');
    assert.equal((await labels.retrieve(p.projectId, child.id)).parent, null);
    assert.equal((await labels.retrieve(p.projectId, grandchild.id)).parent, child.id);
  });
});
