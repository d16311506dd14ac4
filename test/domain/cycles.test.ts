import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CycleService, IssueCommandService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { domainSuite, ProjectContext, rejectsWith, Seeded } from '../support/domain-fixtures';

describe('domain: cycle rules (CycleService): dates, archive, completed cycles, transfer', () => {
  let d: DomainContext;
  let cycles: CycleService;
  let p: Seeded;
  let ctx: ProjectContext;
  const future = { start_date: '2099-01-01', end_date: '2099-01-31' };
  const past = { start_date: '2020-01-01', end_date: '2020-01-31' };
  domainSuite({ projects: 1 }, (s) => {
    ({
      d,
      seeded: [p],
    } = s);
    cycles = d.get(CycleService);
    ctx = p.ctx;
  });

  const stateOf = async (group: string) =>
    (
      await d.sql<{ id: string }>(
        'SELECT id FROM states WHERE project_id = $1 AND "group" = $2 AND deleted_at IS NULL',
        [p.projectId, group],
      )
    )[0].id;
  const cycleOf = async (issueId: string) =>
    (
      await d.sql<{ cycle_id: string }>(
        'SELECT cycle_id FROM cycle_issues WHERE issue_id = $1 AND deleted_at IS NULL',
        [issueId],
      )
    ).map((r) => r.cycle_id);

  it('dates are both or neither, start before end; a day is read in the cycle time zone', async () => {
    const one = await rejectsWith(cycles.create(ctx, { name: 'Half', start_date: '2099-01-01' }), 'VALIDATION_ERROR');
    assert.ok(one.extra.errors && 'end_date' in (one.extra.errors as object));
    const order = await rejectsWith(
      cycles.create(ctx, { name: 'Backwards', start_date: '2099-02-01', end_date: '2099-01-01' }),
      'VALIDATION_ERROR',
    );
    assert.deepEqual(order.extra.errors, { start_date: ['Start date cannot exceed end date.'] });
    await rejectsWith(
      cycles.create(ctx, { name: 'Bad', start_date: '2099-02-30', end_date: '2099-03-01' }),
      'VALIDATION_ERROR',
    );
    const zoned = await cycles.create(ctx, { name: 'Tokyo', timezone: 'Asia/Tokyo', ...future });
    const [row] = await d.sql<{ start_date: Date; end_date: Date }>(
      'SELECT start_date, end_date FROM cycles WHERE id = $1',
      [zoned.id],
    );
    assert.equal(new Date(row.start_date).toISOString(), '2098-12-31T15:00:00.000Z');
    assert.equal(new Date(row.end_date).toISOString(), '2099-01-31T14:59:59.000Z');
    const draft = await cycles.create(ctx, { name: 'Draft' });
    assert.equal(draft.start_date, null);
  });

  it('a second cycle on the same days fails the date check; a draft has no dates to clash', async () => {
    const first = await cycles.create(ctx, { name: 'Sprint A', start_date: '2098-03-01', end_date: '2098-03-14' });
    assert.deepEqual(await cycles.dateCheck(p.projectId, '2098-03-20', '2098-03-30', null), { status: true });
    const clash = await cycles.dateCheck(p.projectId, '2098-03-10', '2098-03-20', null);
    assert.equal(clash.status, false);
    // its own days do not clash with itself
    assert.deepEqual(await cycles.dateCheck(p.projectId, '2098-03-01', '2098-03-14', first.id), { status: true });
  });

  it('only a cycle that has ended can be archived; an archived cycle is out of the list and refuses changes', async () => {
    const running = await cycles.create(ctx, { name: 'Running', ...future });
    await rejectsWith(cycles.archive(ctx, running.id), 'CYCLE_NOT_COMPLETED');
    const draft = await cycles.create(ctx, { name: 'Undated' });
    await rejectsWith(cycles.archive(ctx, draft.id), 'CYCLE_NOT_COMPLETED');
    const done = await cycles.create(ctx, { name: 'Done', ...past });
    await cycles.archive(ctx, done.id);
    await rejectsWith(cycles.retrieve(p.projectId, done.id), 'NOT_FOUND');
    assert.equal((await cycles.retrieveArchived(p.projectId, done.id)).id, done.id);
    await rejectsWith(cycles.update(ctx, done.id, { sort_order: 5 }), 'CYCLE_ARCHIVED');
    await cycles.unarchive(ctx, done.id);
    assert.equal((await cycles.retrieve(p.projectId, done.id)).id, done.id);
  });

  it('a cycle that has ended takes only a new sort order, and no work items', async () => {
    const done = await cycles.create(ctx, { name: 'Over', ...past });
    await rejectsWith(cycles.update(ctx, done.id, { name: 'Renamed' }), 'CYCLE_COMPLETED');
    await rejectsWith(cycles.update(ctx, done.id, { name: 'Renamed', sort_order: 7 }), 'CYCLE_COMPLETED');
    assert.equal((await cycles.retrieve(p.projectId, done.id)).name, 'Over');
    assert.equal(Number((await cycles.update(ctx, done.id, { sort_order: 7 })).sort_order), 7);
    const item = await d.get(IssueCommandService).create(ctx, { name: 'Late' });
    await rejectsWith(cycles.addIssues(ctx, done.id, [item.id as string]), 'CYCLE_COMPLETED');
    assert.deepEqual(await cycleOf(item.id as string), []);
  });

  it("transfer moves only the ended cycle's open work items to a running one, and keeps the old counts", async () => {
    const source = await cycles.create(ctx, { name: 'Source', start_date: '2097-01-01', end_date: '2097-01-14' });
    const target = await cycles.create(ctx, { name: 'Target', start_date: '2097-02-01', end_date: '2097-02-14' });
    const commands = d.get(IssueCommandService);
    const open = await commands.create(ctx, { name: 'Open', state: await stateOf('started') });
    const closed = await commands.create(ctx, { name: 'Closed', state: await stateOf('completed') });
    await cycles.addIssues(ctx, source.id, [open.id as string, closed.id as string]);

    await rejectsWith(cycles.transfer(ctx, source.id, target.id), 'CYCLE_NOT_COMPLETED');
    await cycles.update(ctx, source.id, past);
    await rejectsWith(cycles.transfer(ctx, source.id, source.id), 'VALIDATION_ERROR');
    await rejectsWith(cycles.transfer(ctx, source.id, undefined), 'VALIDATION_ERROR');
    const ended = await cycles.create(ctx, { name: 'Ended too', ...past });
    await rejectsWith(cycles.transfer(ctx, source.id, ended.id), 'CYCLE_TRANSFER_TARGET_COMPLETED');
    assert.deepEqual(await cycleOf(open.id as string), [source.id], 'a refused transfer moved nothing');

    assert.deepEqual(await cycles.transfer(ctx, source.id, target.id), { message: 'Success' });
    assert.deepEqual(await cycleOf(open.id as string), [target.id]);
    assert.deepEqual(await cycleOf(closed.id as string), [source.id]);
    const [snap] = await d.sql<{ progress_snapshot: Record<string, number> }>(
      'SELECT progress_snapshot FROM cycles WHERE id = $1',
      [source.id],
    );
    assert.equal(Number(snap.progress_snapshot.total_issues), 2);
    assert.equal(Number(snap.progress_snapshot.completed_issues), 1);
    const history = await d.sql('SELECT 1 FROM issue_activities WHERE issue_id = $1 AND field = $2', [
      open.id,
      'cycles',
    ]);
    assert.equal(history.length, 2, 'added, then moved');
  });
});
