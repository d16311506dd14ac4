import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CycleService, IssueCommandService, WebhookService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { domainSuite, ProjectContext, rejectsWith, Seeded } from '../support/domain-fixtures';

describe('domain: webhook rules (WebhookService): the URL guard, secrets, one URL per workspace, event switches', () => {
  let d: DomainContext;
  let hooks: WebhookService;
  let p: Seeded;
  let ctx: ProjectContext;
  domainSuite({ projects: 1, env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' } }, (s) => {
    ({
      d,
      seeded: [p],
    } = s);
    // 127.0.0.1 is let through by name, as an operator would for a receiver on the same machine
    hooks = d.get(WebhookService);
    ctx = p.ctx;
  });

  const deliveries = (webhookId: string, event: string) =>
    d.sql('SELECT 1 FROM webhook_deliveries WHERE webhook_id = $1 AND event = $2', [webhookId, event]);

  it('refuses other schemes, private and loopback addresses not allowed, and what is not a URL', async () => {
    await rejectsWith(hooks.create(p.workspaceId, p.userId, { url: 'ftp://127.0.0.1/x' }), 'WEBHOOK_URL_NOT_ALLOWED');
    for (const url of [
      'http://10.1.2.3/hook',
      'http://[::1]:8080/hook',
      'http://169.254.169.254/latest',
      'http://127.0.0.2/',
    ])
      await rejectsWith(hooks.create(p.workspaceId, p.userId, { url }), 'WEBHOOK_URL_NOT_ALLOWED');
    await rejectsWith(hooks.create(p.workspaceId, p.userId, { url: 'not a url' }), 'VALIDATION_ERROR');
    const none = await d.sql('SELECT 1 FROM webhooks WHERE workspace_id = $1', [p.workspaceId]);
    assert.equal(none.length, 0);
  });

  it('the secret is shown once, stored sealed, and replaced by regenerate; a URL is one per workspace', async () => {
    const url = 'http://127.0.0.1:9/secret';
    const hook = await hooks.create(p.workspaceId, p.userId, { url });
    assert.match(hook.secret_key, /^plane_wh_[0-9a-f]{32}$/);
    assert.ok(!('secret_key' in (await hooks.get(p.workspaceId, hook.id as string))));
    const [row] = await d.sql<{ secret_sealed: string }>('SELECT secret_sealed FROM webhooks WHERE id = $1', [hook.id]);
    assert.ok(!row.secret_sealed.includes(hook.secret_key.slice(9)), 'not stored in clear');
    assert.equal(hooks.openSecret({ secretSealed: row.secret_sealed }), hook.secret_key);
    const again = await hooks.regenerate(p.workspaceId, p.userId, hook.id as string);
    assert.notEqual(again.secret_key, hook.secret_key);
    await rejectsWith(hooks.create(p.workspaceId, p.userId, { url }), 'WEBHOOK_URL_TAKEN');
    await hooks.remove(p.workspaceId, hook.id as string);
  });

  it('an event is queued only for the switches that are on (all off by default)', async () => {
    const hook = await hooks.create(p.workspaceId, p.userId, { url: 'http://127.0.0.1:9/events', issue: true });
    const id = hook.id as string;
    assert.deepEqual([hook.project, hook.cycle, hook.module, hook.issue_comment], [false, false, false, false]);
    await d.get(IssueCommandService).create(ctx, { name: 'Heard' });
    await d.get(CycleService).create(ctx, { name: 'Not heard' });
    assert.equal((await deliveries(id, 'issue')).length, 1);
    assert.equal((await deliveries(id, 'cycle')).length, 0);
    await hooks.update(p.workspaceId, p.userId, id, { cycle: true, issue: false });
    await d.get(CycleService).create(ctx, { name: 'Heard now' });
    await d.get(IssueCommandService).create(ctx, { name: 'Not heard now' });
    assert.equal((await deliveries(id, 'cycle')).length, 1);
    assert.equal((await deliveries(id, 'issue')).length, 1);
  });
});
