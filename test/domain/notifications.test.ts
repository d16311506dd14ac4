import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppProjectService, IssueChildrenService, IssueCommandService, NotificationService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { addWorkspaceMember, domainSuite, ProjectContext, rejectsWith, Seeded } from '../support/domain-fixtures';

describe('domain: notification rules (NotificationService and the activity listeners): who is told, and only they', () => {
  let d: DomainContext;
  let notifications: NotificationService;
  let p: Seeded;
  let owner: ProjectContext;
  let mate: Awaited<ReturnType<typeof addWorkspaceMember>>;
  let third: Awaited<ReturnType<typeof addWorkspaceMember>>;
  domainSuite({ projects: 1 }, async (s) => {
    ({
      d,
      seeded: [p],
    } = s);
    notifications = d.get(NotificationService);
    owner = p.ctx;
    mate = await addWorkspaceMember(d, p.workspaceId, p, 15);
    third = await addWorkspaceMember(d, p.workspaceId, p, 15);
    for (const u of [mate, third])
      await d.get(AppProjectService).join(p.workspaceId, { userId: u.userId, workspaceRole: 15 }, [p.projectId]);
  });

  const inbox = (userId: string, issueId: string) =>
    d.sql<{ id: string; sender: string }>(
      'SELECT id, sender FROM notifications WHERE receiver_id = $1 AND entity_identifier = $2 ORDER BY created_at',
      [userId, issueId],
    );
  const mention = (userId: string) =>
    `<p>see <mention-component entity_name="user_mention" entity_identifier="${userId}"></mention-component></p>`;

  it('an assignee and a mentioned member are told on create; the actor and the others are not', async () => {
    const issue = await d.get(IssueCommandService).create(owner, {
      name: 'Told',
      assignees: [mate.userId],
      description_html: mention(third.userId),
    });
    const id = issue.id as string;
    assert.deepEqual(
      (await inbox(mate.userId, id)).map((n) => n.sender),
      ['in_app:issue_activities:assigned'],
    );
    assert.deepEqual(
      (await inbox(third.userId, id)).map((n) => n.sender),
      ['in_app:issue_activities:mentioned'],
    );
    assert.deepEqual(await inbox(p.userId, id), [], 'nobody is told of their own change');
  });

  it('a comment tells the subscribers (the creator among them) but not its author; a priority change tells nobody', async () => {
    const asMate = { ...owner, userId: mate.userId, role: 15 };
    const id = (await d.get(IssueCommandService).create(asMate, { name: 'Mine' })).id as string;
    assert.deepEqual(await inbox(mate.userId, id), []);
    await d.get(IssueCommandService).update(owner, id, { priority: 'high' });
    assert.deepEqual(await inbox(mate.userId, id), [], 'a property change is no notification');
    await d.get(IssueChildrenService).createComment(owner, id, { comment_html: '<p>looked at it</p>' });
    assert.deepEqual(
      (await inbox(mate.userId, id)).map((n) => n.sender),
      ['in_app:issue_activities:created'],
    );
    await d.get(IssueChildrenService).createComment(asMate, id, { comment_html: '<p>thanks</p>' });
    assert.equal((await inbox(mate.userId, id)).length, 1, 'not told of their own comment');
    assert.equal((await inbox(p.userId, id)).length, 1, 'the owner, subscribed by commenting, is told');
  });

  it("a notification is its receiver's alone; mark-all-read clears the unread count", async () => {
    const id = (await d.get(IssueCommandService).create(owner, { name: 'Read me', assignees: [mate.userId] }))
      .id as string;
    const [n] = await inbox(mate.userId, id);
    await rejectsWith(notifications.retrieve(p.workspaceId, third.userId, n.id), 'NOT_FOUND');
    assert.equal((await notifications.retrieve(p.workspaceId, mate.userId, n.id)).id, n.id);
    assert.ok((await notifications.unreadCounts(p.workspaceId, mate.userId)).total_unread_notifications_count > 0);
    await notifications.markAllRead(p.workspaceId, mate.userId, 15, {});
    assert.equal((await notifications.unreadCounts(p.workspaceId, mate.userId)).total_unread_notifications_count, 0);
  });
});
