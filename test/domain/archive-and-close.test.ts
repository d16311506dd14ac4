import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ArchiveAndCloseService,
  CycleService,
  IssueCommandService,
  ModuleService,
  ProjectService,
  StateService,
} from '#domain';
import type { DomainContext } from '../support/domain-context';
import { domainSuite, Seeded, seedProject } from '../support/domain-fixtures';

describe('domain: the daily archive-and-close (ArchiveAndCloseService)', () => {
  let d: DomainContext;
  let automation: ArchiveAndCloseService;
  domainSuite({ projects: 0 }, (s) => {
    d = s.d;
    automation = d.get(ArchiveAndCloseService);
  });

  const stateOf = async (p: Seeded, group: string) =>
    (
      await d.sql<{ id: string; name: string }>(
        'SELECT id, name FROM states WHERE project_id = $1 AND "group" = $2 AND deleted_at IS NULL ORDER BY sequence LIMIT 1',
        [p.projectId, group],
      )
    )[0];
  const item = async (p: Seeded, name: string, group: string, daysIdle: number) => {
    const state = await stateOf(p, group);
    const issue = await d.get(IssueCommandService).create(p.ctx, { name, state: state.id });
    await d.sql(`UPDATE issues SET updated_at = now() - ($2 || ' days')::interval WHERE id = $1`, [
      issue.id,
      String(daysIdle),
    ]);
    return issue.id as string;
  };
  const row = async (id: string) =>
    (
      await d.sql<{ archived_at: string | null; state_id: string; completed_at: Date | null; updated_at: Date }>(
        'SELECT archived_at::text AS archived_at, state_id, completed_at, updated_at FROM issues WHERE id = $1',
        [id],
      )
    )[0];
  const history = (id: string, field: string) =>
    d.sql<Record<string, unknown>>(
      `SELECT verb, field, old_value, new_value, old_identifier, new_identifier, comment, actor_id
       FROM issue_activities WHERE issue_id = $1 AND field = $2 ORDER BY created_at`,
      [id, field],
    );
  const settings = (p: Seeded, input: Record<string, unknown>) =>
    d.get(ProjectService).update(p.workspaceId, p.projectId, p.actor, input);

  it('archives completed and cancelled work items idle for archive_in × 30 days, not those in a running cycle or module', async () => {
    const p = await seedProject(d);
    await settings(p, { archive_in: 1 });
    const done = await item(p, 'done, idle', 'completed', 31);
    const cancelled = await item(p, 'cancelled, idle', 'cancelled', 40);
    const fresh = await item(p, 'done, recent', 'completed', 29);
    const open = await item(p, 'backlog, idle', 'backlog', 90);
    const inRunningCycle = await item(p, 'in running cycle', 'completed', 60);
    const inEndedCycle = await item(p, 'in ended cycle', 'completed', 60);
    const inOpenModule = await item(p, 'in open module', 'completed', 60);
    const inUndatedModule = await item(p, 'in undated module', 'completed', 60);
    const inPastModule = await item(p, 'in past module', 'completed', 60);

    const running = await d
      .get(CycleService)
      .create(p, { name: 'Running', start_date: '2020-01-01', end_date: '2099-12-31' });
    const ended = await d
      .get(CycleService)
      .create(p, { name: 'Ended', start_date: '2020-01-01', end_date: '2099-12-31' });
    await d.get(CycleService).addIssues(p, running.id as string, [inRunningCycle]);
    await d.get(CycleService).addIssues(p, ended.id as string, [inEndedCycle]);
    await d.sql(`UPDATE cycles SET end_date = now() - interval '2 days' WHERE id = $1`, [ended.id]);
    const openModule = await d.get(ModuleService).create(p, { name: 'Open', target_date: '2099-12-31' });
    const undated = await d.get(ModuleService).create(p, { name: 'Undated' });
    const past = await d.get(ModuleService).create(p, { name: 'Past', target_date: '2020-01-31' });
    await d.get(ModuleService).addIssues(p, openModule.id as string, [inOpenModule]);
    await d.get(ModuleService).addIssues(p, undated.id as string, [inUndatedModule]);
    await d.get(ModuleService).addIssues(p, past.id as string, [inPastModule]);
    // adding to a cycle or module moved updated_at: idle again
    await d.sql(`UPDATE issues SET updated_at = now() - interval '60 days' WHERE id = ANY($1::uuid[])`, [
      [inRunningCycle, inEndedCycle, inOpenModule, inUndatedModule, inPastModule],
    ]);

    const now = new Date();
    const before = now.getTime();
    const result = await automation.run(now);
    assert.ok(result.archived >= 4, `archived ${result.archived}`);
    const today = now.toISOString().slice(0, 10);
    for (const id of [done, cancelled, inEndedCycle, inPastModule]) {
      const r = await row(id);
      assert.equal(r.archived_at, today, 'archived today');
      assert.ok(r.updated_at.getTime() >= before - 1000, 'updated_at moved, so the delta sync sees it');
      assert.deepEqual(await history(id, 'archived_at'), [
        {
          verb: 'updated',
          field: 'archived_at',
          old_value: null,
          new_value: 'archive',
          old_identifier: null,
          new_identifier: null,
          comment: 'Plane has archived the issue',
          actor_id: p.userId,
        },
      ]);
    }
    for (const id of [fresh, open, inRunningCycle, inOpenModule, inUndatedModule]) {
      assert.equal((await row(id)).archived_at, null);
      assert.deepEqual(await history(id, 'archived_at'), []);
    }
    // the backlog item is not closed either: close_in is 0
    assert.deepEqual(await history(open, 'state'), []);

    // a second run the same day finds nothing left of this project
    const again = await automation.run(now);
    assert.equal(again.archived, 0);
    assert.deepEqual((await history(done, 'archived_at')).length, 1);
  });

  it("closes idle backlog/unstarted/started work items into the project's default_state, else its cancelled state", async () => {
    const p = await seedProject(d);
    await settings(p, { close_in: 2 });
    const cancelledState = await stateOf(p, 'cancelled');
    const backlog = await item(p, 'backlog idle', 'backlog', 61);
    const started = await item(p, 'started idle', 'started', 100);
    const recent = await item(p, 'started recent', 'started', 59);
    const completed = await item(p, 'completed idle', 'completed', 100);

    const first = await automation.run();
    assert.ok(first.closed >= 2);
    for (const id of [backlog, started]) {
      assert.equal((await row(id)).state_id, cancelledState.id, 'no default_state: the cancelled state');
      assert.deepEqual(await history(id, 'state'), [
        {
          verb: 'updated',
          field: 'state',
          old_value: null,
          new_value: cancelledState.name,
          old_identifier: null,
          new_identifier: cancelledState.id,
          comment: 'Plane updated the state to ',
          actor_id: p.userId,
        },
      ]);
    }
    assert.notEqual((await row(recent)).state_id, cancelledState.id);
    assert.deepEqual(await history(completed, 'state'), []);

    // with a default_state of the completed group, closed items are completed (completed_at set)
    const doneState = await stateOf(p, 'completed');
    await settings(p, { default_state: doneState.id });
    const unstarted = await item(p, 'unstarted idle', 'unstarted', 70);
    await automation.run();
    const r = await row(unstarted);
    assert.equal(r.state_id, doneState.id);
    assert.ok(r.completed_at, 'completed_at set');
    assert.equal((await history(unstarted, 'state'))[0].new_value, doneState.name);

    // a deleted default_state falls back to the cancelled state
    const review = await d.get(StateService).create(p.workspaceId, p.projectId, p.userId, {
      name: 'Shelved',
      color: '#777777',
      group: 'cancelled',
    });
    await settings(p, { default_state: review.id as string });
    await d.sql('UPDATE states SET deleted_at = now() WHERE id = $1', [review.id]);
    const later = await item(p, 'backlog idle 2', 'backlog', 70);
    await automation.run();
    assert.equal((await row(later)).state_id, cancelledState.id);
  });

  it('two runs at once share the work: every item changed once, with one history row', async () => {
    const p = await seedProject(d);
    await settings(p, { archive_in: 3 });
    const done = await stateOf(p, 'completed');
    const ids: string[] = [];
    for (let n = 0; n < 230; n++) {
      const issue = await d.get(IssueCommandService).create(p.ctx, { name: `Old ${n}`, state: done.id });
      ids.push(issue.id as string);
    }
    await d.sql(`UPDATE issues SET updated_at = now() - interval '100 days' WHERE id = ANY($1::uuid[])`, [ids]);
    const [a, b] = await Promise.all([automation.run(), automation.run()]);
    assert.equal(a.archived + b.archived, 230);
    const [{ n }] = await d.sql<{ n: number }>(
      `SELECT COUNT(*)::int AS n FROM issue_activities WHERE issue_id = ANY($1::uuid[]) AND field = 'archived_at'`,
      [ids],
    );
    assert.equal(n, 230);
    const [{ left }] = await d.sql<{ left: number }>(
      'SELECT COUNT(*)::int AS left FROM issues WHERE id = ANY($1::uuid[]) AND archived_at IS NULL',
      [ids],
    );
    assert.equal(left, 0);
  });
});
