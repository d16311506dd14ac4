import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AccountService, MailService, WorkspaceInvitationService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { domainSuite, rejectsWith, Seeded } from '../support/domain-fixtures';
import { unique } from '../support/fixtures';

describe('domain: workspace invitation rules (WorkspaceInvitationService): role bounds, the link token, answers', () => {
  let d: DomainContext;
  let invitations: WorkspaceInvitationService;
  let p: Seeded;
  let slug: string;
  const sent: Array<{ to: string; text: string }> = [];
  domainSuite({ projects: 1 }, async (s) => {
    ({
      d,
      seeded: [p],
    } = s);
    invitations = d.get(WorkspaceInvitationService);
    [{ slug }] = await d.sql<{ slug: string }>('SELECT slug FROM workspaces WHERE id = $1', [p.workspaceId]);
    // the mail room is real (its log fallback); the messages are read on their way there
    const mail = d.get(MailService);
    const send = mail.send.bind(mail);
    mail.send = (m) => {
      sent.push({ to: m.to, text: m.text });
      return send(m);
    };
  });

  const admin = () => ({ userId: p.userId, email: p.email, role: 20 });
  /** the invitation id and token of the last link mailed to `email` */
  const linkTo = (email: string) => {
    const m = [...sent].reverse().find((s) => s.to === email);
    assert.ok(m, `a mail to ${email}`);
    const url = new URL(/https?:\/\/\S+/.exec(m.text)![0]);
    return { id: url.searchParams.get('invitation_id')!, token: url.searchParams.get('token')! };
  };
  const newEmail = () => `${unique('invitee')}@example.com`;

  it('nobody invites above their own role; a duplicate email or an active member is refused', async () => {
    const email = newEmail();
    await rejectsWith(
      invitations.invite(p.workspaceId, { ...admin(), role: 15 }, { emails: [{ email, role: 20 }] }),
      'PERMISSION_DENIED',
    );
    await rejectsWith(
      invitations.invite(p.workspaceId, admin(), { emails: [{ email }, { email: email.toUpperCase() }] }),
      'VALIDATION_ERROR',
    );
    const taken = await rejectsWith(
      invitations.invite(p.workspaceId, admin(), { emails: [{ email: p.email }] }),
      'ALREADY_WORKSPACE_MEMBER',
    );
    assert.deepEqual(taken.extra.workspace_users, [p.email]);
    const rows = await d.sql('SELECT 1 FROM workspace_member_invites WHERE email = $1', [email]);
    assert.equal(rows.length, 0, 'a refused invitation writes nothing');
    await invitations.invite(p.workspaceId, admin(), { emails: [{ email }] });
    const [row] = await d.sql<{ role: number }>('SELECT role FROM workspace_member_invites WHERE email = $1', [email]);
    assert.equal(row.role, 5, 'Guest by default');
    await rejectsWith(
      invitations.updateRole(p.workspaceId, { ...admin(), role: 15 }, linkTo(email).id, 20),
      'PERMISSION_DENIED',
    );
  });

  it('the link needs its token (stored hashed), and a resend replaces it', async () => {
    const email = newEmail();
    await invitations.invite(p.workspaceId, admin(), { emails: [{ email, role: 15 }] });
    const first = linkTo(email);
    const [stored] = await d.sql<{ token_digest: string }>(
      'SELECT token_digest FROM workspace_member_invites WHERE id = $1',
      [first.id],
    );
    assert.notEqual(stored.token_digest, first.token);
    assert.equal((await invitations.getByLink(slug, first.id, first.token)).email, email);
    await rejectsWith(invitations.getByLink(slug, first.id, `${first.token}x`), 'INVITATION_NOT_FOUND');
    await rejectsWith(invitations.getByLink('another-slug', first.id, first.token), 'INVITATION_NOT_FOUND');
    await invitations.invite(p.workspaceId, admin(), { emails: [{ email, role: 15 }] });
    const second = linkTo(email);
    assert.equal(second.id, first.id, 'the same invitation');
    await rejectsWith(invitations.getByLink(slug, first.id, first.token), 'INVITATION_NOT_FOUND');
    assert.equal((await invitations.getByLink(slug, second.id, second.token)).email, email);
  });

  it('an answer through the link: the invited email only, once; accepting makes a member with the role', async () => {
    const email = newEmail();
    const account = await d
      .get(AccountService)
      .signUp({ email, password: 'correct horse 1' }, { ipAddress: '127.0.0.1' });
    await invitations.invite(p.workspaceId, admin(), { emails: [{ email, role: 15 }] });
    const { id, token } = linkTo(email);
    await rejectsWith(
      invitations.join(slug, id, { email: 'someone.else@example.com', accepted: true, token }),
      'INVITATION_EMAIL_MISMATCH',
    );
    await invitations.join(slug, id, { email: email.toUpperCase(), accepted: true, token });
    const [member] = await d.sql<{ role: number; is_active: boolean }>(
      'SELECT role, is_active FROM workspace_members WHERE workspace_id = $1 AND member_id = $2',
      [p.workspaceId, account.user.id],
    );
    assert.deepEqual({ ...member }, { role: 15, is_active: true });

    const declined = newEmail();
    await invitations.invite(p.workspaceId, admin(), { emails: [{ email: declined }] });
    const link = linkTo(declined);
    await invitations.join(slug, link.id, { email: declined, accepted: false, token: link.token });
    await rejectsWith(
      invitations.join(slug, link.id, { email: declined, accepted: true, token: link.token }),
      'INVITATION_ALREADY_RESPONDED',
    );
  });

  it('accepting signed in: only live invitations for the caller, all or none', async () => {
    const email = newEmail();
    const account = await d
      .get(AccountService)
      .signUp({ email, password: 'correct horse 1' }, { ipAddress: '127.0.0.1' });
    const userId = account.user.id as string;
    await invitations.invite(p.workspaceId, admin(), { emails: [{ email }] });
    const mine = linkTo(email).id;
    const theirs = newEmail();
    await invitations.invite(p.workspaceId, admin(), { emails: [{ email: theirs }] });
    await rejectsWith(invitations.acceptMine({ userId, email }, [mine, linkTo(theirs).id]), 'INVITATION_NOT_FOUND');
    const none = await d.sql('SELECT 1 FROM workspace_members WHERE workspace_id = $1 AND member_id = $2', [
      p.workspaceId,
      userId,
    ]);
    assert.equal(none.length, 0, 'nothing accepted');
    await invitations.acceptMine({ userId, email }, [mine]);
    const [row] = await d.sql<{ role: number }>(
      'SELECT role FROM workspace_members WHERE workspace_id = $1 AND member_id = $2 AND is_active',
      [p.workspaceId, userId],
    );
    assert.equal(row.role, 5);
  });
});
