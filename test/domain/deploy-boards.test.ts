import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { DeployBoardService, IssueCommandService, ProjectService, PublicCommentService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { domainSuite, rejectsWith, Seeded } from '../support/domain-fixtures';

describe('domain: published board rules (DeployBoardService, PublicCommentService): one board, its anchor, its switches', () => {
  let d: DomainContext;
  let boards: DeployBoardService;
  let comments: PublicCommentService;
  let p: Seeded;
  let issueId: string;
  domainSuite({ projects: 1 }, async (s) => {
    ({
      d,
      seeded: [p],
    } = s);
    boards = d.get(DeployBoardService);
    comments = d.get(PublicCommentService);
    const ctx = p.ctx;
    issueId = (await d.get(IssueCommandService).create(ctx, { name: 'On the board' })).id as string;
  });

  const html = { comment_html: '<p>hello</p>' };

  it('publishing twice keeps one board and its anchor; comments are off by default', async () => {
    const first = await boards.publish(p.workspaceId, p.projectId, p.userId, {});
    assert.equal(first.created, true);
    assert.match(first.board.anchor as string, /^[0-9a-f]{32}$/);
    const again = await boards.publish(p.workspaceId, p.projectId, p.userId, { is_votes_enabled: true });
    assert.equal(again.created, false);
    assert.equal(again.board.anchor, first.board.anchor);
    assert.equal(again.board.is_votes_enabled, true);
    await rejectsWith(
      comments.createComment(first.board.anchor as string, issueId, p.userId, html),
      'BOARD_COMMENTS_DISABLED',
    );
    await rejectsWith(
      boards.update(p.workspaceId, p.projectId, first.board.id as string, p.userId, { intake: randomUUID() }),
      'VALIDATION_ERROR',
    );
  });

  it('with comments on, a signed-in user comments (EXTERNAL) and edits only their own', async () => {
    const { board } = await boards.publish(p.workspaceId, p.projectId, p.userId, { is_comments_enabled: true });
    const anchor = board.anchor as string;
    const c = (await comments.createComment(anchor, issueId, p.userId, html)) as { id: string; access: string };
    assert.equal(c.access, 'EXTERNAL');
    await rejectsWith(
      comments.updateComment(anchor, issueId, c.id, randomUUID(), { comment_html: '<p>x</p>' }),
      'NOT_FOUND',
    );
    await rejectsWith(comments.createComment(anchor, randomUUID(), p.userId, html), 'NOT_FOUND');
  });

  it('an unknown, unpublished or archived board is BOARD_NOT_FOUND', async () => {
    const { board } = await boards.publish(p.workspaceId, p.projectId, p.userId, {});
    const anchor = board.anchor as string;
    await rejectsWith(comments.comments('not-an-anchor', issueId), 'BOARD_NOT_FOUND');
    await d.get(ProjectService).setArchived(p.workspaceId, p.projectId, p.actor, true);
    await rejectsWith(comments.comments(anchor, issueId), 'BOARD_NOT_FOUND');
    await d.get(ProjectService).setArchived(p.workspaceId, p.projectId, p.actor, false);
    await boards.unpublish(p.workspaceId, p.projectId, board.id as string, p.userId);
    await rejectsWith(comments.comments(anchor, issueId), 'BOARD_NOT_FOUND');
    assert.equal(await boards.current(p.workspaceId, p.projectId), null);
  });
});
