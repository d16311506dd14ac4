import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { IntakeService, IssueCommandService, ProjectService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { domainSuite, ProjectContext, rejectsWith, Seeded } from '../support/domain-fixtures';

describe('domain: intake rules (IntakeService): accept, decline, snooze, duplicate, who decides', () => {
  let d: DomainContext;
  let intake: IntakeService;
  let p: Seeded;
  let other: Seeded;
  let admin: ProjectContext;
  domainSuite({ projects: 2 }, (s) => {
    ({
      d,
      seeded: [p, other],
    } = s);
    intake = d.get(IntakeService);
    admin = p.ctx;
  });

  const issueRow = async (id: string) =>
    (
      await d.sql<{ group: string; deleted_at: Date | null }>(
        'SELECT s."group", i.deleted_at FROM issues i LEFT JOIN states s ON s.id = i.state_id WHERE i.id = $1',
        [id],
      )
    )[0];
  const intakeHistory = (id: string) =>
    d.sql<{ old_value: string; new_value: string }>(
      "SELECT old_value, new_value FROM issue_activities WHERE issue_id = $1 AND field = 'intake' ORDER BY created_at",
      [id],
    );
  const submit = async (name: string) => (await intake.create(admin, { issue: { name } })).issue as string;

  it('a project without intake refuses items; a new item is pending and needs a name', async () => {
    await rejectsWith(intake.create(admin, { issue: { name: 'Too early' } }), 'INTAKE_NOT_ENABLED');
    await d.get(ProjectService).update(p.workspaceId, p.projectId, p.actor, {
      intake_view: true,
    });
    await rejectsWith(intake.create(admin, { issue: { name: '  ' } }), 'VALIDATION_ERROR');
    const item = await intake.create(admin, { issue: { name: 'Bug report' }, status: 1 });
    assert.equal(item.status, -2, 'a status on create is ignored: pending');
  });

  it('only a project Admin changes the status; the creator as a Member may not', async () => {
    const id = await submit('Needs triage');
    await rejectsWith(intake.update({ ...admin, role: 15 }, id, { status: 1 }), 'PERMISSION_DENIED');
    await rejectsWith(
      intake.update({ ...admin, userId: randomUUID(), role: 15 }, id, { issue: { name: 'x' } }),
      'PERMISSION_DENIED',
    );
    assert.equal((await intake.retrieve(p.projectId, id)).status, -2);
    assert.deepEqual(await intakeHistory(id), []);
  });

  it('accept keeps the work item; decline moves it to a cancelled state; each with history', async () => {
    const accepted = await submit('Accept me');
    assert.equal((await intake.update(admin, accepted, { status: 1 })).status, 1);
    assert.notEqual((await issueRow(accepted)).group, 'cancelled');
    assert.deepEqual(
      (await intakeHistory(accepted)).map((h) => [h.old_value, h.new_value]),
      [['pending', 'accepted']],
    );
    const declined = await submit('Decline me');
    assert.equal((await intake.update(admin, declined, { status: -1 })).status, -1);
    assert.equal((await issueRow(declined)).group, 'cancelled');
  });

  it('snooze keeps the time; duplicate needs another work item of the project', async () => {
    const snoozed = await submit('Later');
    const until = '2099-01-01T00:00:00.000Z';
    const item = await intake.update(admin, snoozed, { status: 0, snoozed_till: until });
    assert.equal(item.status, 0);
    assert.equal(new Date(item.snoozed_till as string).toISOString(), until);

    const dup = await submit('Same as another');
    const original = await d.get(IssueCommandService).create(admin, { name: 'Original' });
    const foreign = await d.get(IssueCommandService).create(other.ctx, { name: 'X' });
    await rejectsWith(intake.update(admin, dup, { status: 2 }), 'VALIDATION_ERROR');
    await rejectsWith(intake.update(admin, dup, { status: 2, duplicate_to: dup }), 'VALIDATION_ERROR');
    await rejectsWith(intake.update(admin, dup, { status: 2, duplicate_to: foreign.id as string }), 'VALIDATION_ERROR');
    assert.equal((await intake.retrieve(p.projectId, dup)).status, -2, 'a refused change wrote nothing');
    const done = await intake.update(admin, dup, { status: 2, duplicate_to: original.id as string });
    assert.equal(done.status, 2);
    assert.equal(done.duplicate_to, original.id);
    assert.equal((await issueRow(dup)).group, 'cancelled');
  });

  it('removing a pending item deletes its work item; removing an accepted one keeps it', async () => {
    const pending = await submit('Spam');
    await intake.remove(admin, pending);
    assert.ok((await issueRow(pending)).deleted_at, 'the work item is gone');
    const accepted = await submit('Real');
    await intake.update(admin, accepted, { status: 1 });
    await intake.remove(admin, accepted);
    assert.equal((await issueRow(accepted)).deleted_at, null);
    await rejectsWith(intake.retrieve(p.projectId, accepted), 'NOT_FOUND');
  });
});
