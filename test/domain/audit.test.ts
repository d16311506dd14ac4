import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DataSource } from 'typeorm';
import { ApiTokenService, AuditService, recordAudit, screenMetadata } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { domainSuite, Seeded } from '../support/domain-fixtures';

describe('domain: the audit log (AuditService, recordAudit)', () => {
  let d: DomainContext;
  let audit: AuditService;
  let p: Seeded;
  domainSuite({ projects: 1 }, (s) => {
    ({
      d,
      seeded: [p],
    } = s);
    audit = d.get(AuditService);
  });

  it('drops metadata keys that name a secret, at any depth, and keeps the rest', () => {
    assert.deepEqual(
      screenMetadata({
        label: 'ci',
        token: 'x',
        new_password: 'y',
        list: [{ client_secret: 'z', host: 'h' }],
        inner: { API_KEY: 'k', authorization: 'Bearer q', session_cookie: 'c', magic_code: '1', keep: 2 },
      }),
      { label: 'ci', list: [{ host: 'h' }], inner: { keep: 2 } },
    );
  });

  it('a service called without a request records the user without an address, in its transaction', async () => {
    const key = await d.get(ApiTokenService).create(p.workspaceId, { id: p.userId }, { label: 'domain' });
    const page = await audit.list({ workspaceId: p.workspaceId, events: ['api_token.created'] }, { perPage: 10 });
    const row = page.results.find((r) => r.target_id === key.id);
    assert.ok(row);
    assert.equal(row.actor_id, p.userId);
    assert.equal(row.ip_address, null);
    assert.equal(row.user_agent, null);
    assert.equal(JSON.stringify(row).includes(key.token), false);
  });

  it('a rolled-back transaction leaves no row; a committed one is read back by the filters', async () => {
    const ds = d.get(DataSource);
    await assert.rejects(
      ds.transaction(async (em) => {
        await recordAudit(em, {
          event: 'project.deleted',
          actor: null,
          workspaceId: p.workspaceId,
          projectId: p.projectId,
        });
        throw new Error('rolled back');
      }),
    );
    const none = await audit.list({ workspaceId: p.workspaceId, events: ['project.deleted'] }, { perPage: 10 });
    assert.equal(none.results.length, 0);
    await ds.transaction((em) =>
      recordAudit(em, { event: 'project.deleted', actor: null, workspaceId: p.workspaceId, projectId: p.projectId }),
    );
    const one = await audit.list({ projectId: p.projectId }, { perPage: 10 });
    assert.deepEqual(
      one.results.map((r) => [r.event, r.workspace_id, r.project_id]),
      [['project.deleted', p.workspaceId, p.projectId]],
    );
    const later = await audit.list({ projectId: p.projectId, from: new Date(Date.now() + 60_000) }, { perPage: 10 });
    assert.equal(later.results.length, 0);
  });

  it('the table refuses UPDATE, DELETE and TRUNCATE', async () => {
    await assert.rejects(d.sql(`UPDATE audit_logs SET metadata = '{}'`), /append-only/);
    await assert.rejects(d.sql(`DELETE FROM audit_logs WHERE workspace_id = $1`, [p.workspaceId]), /append-only/);
    await assert.rejects(d.sql(`TRUNCATE audit_logs`), /append-only/);
  });
});
