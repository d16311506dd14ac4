import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { InstanceAdminService, InstanceService, InstanceSettings } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { domainSuite, rejectsWith, Seeded } from '../support/domain-fixtures';
import { TEST_ADMIN } from '../support/test-app';

const client = { ipAddress: '127.0.0.1', userAgent: 'domain tests' };

describe('domain: the instance (InstanceService, InstanceAdminService): gates, admins and their sessions, workspaces', () => {
  let d: DomainContext;
  let instance: InstanceService;
  let admins: InstanceAdminService;
  let settings: InstanceSettings;
  let p: Seeded;
  domainSuite({ projects: 1 }, (s) => {
    ({ d, p } = s);
    instance = d.get(InstanceService);
    admins = d.get(InstanceAdminService);
    settings = d.get(InstanceSettings);
  });

  it('the sign-up gates follow the settings, and clearing a setting opens the gate again', async () => {
    await instance.assertSignUpAllowed('email');
    await settings.update({ ENABLE_SIGNUP: '0' }, null);
    await rejectsWith(instance.assertSignUpAllowed('oauth'), 'SIGNUP_DISABLED');
    await settings.update({ ENABLE_SIGNUP: null, ENABLE_EMAIL_PASSWORD: '0' }, null);
    await rejectsWith(instance.assertSignUpAllowed('email'), 'EMAIL_PASSWORD_AUTHENTICATION_DISABLED');
    await rejectsWith(instance.assertPasswordLoginAllowed(), 'EMAIL_PASSWORD_AUTHENTICATION_DISABLED');
    await instance.assertSignUpAllowed('oauth');
    await settings.update({ ENABLE_EMAIL_PASSWORD: null, ENABLE_MAGIC_LINK_LOGIN: '0' }, null);
    await rejectsWith(instance.assertSignUpAllowed('magic-code'), 'MAGIC_LINK_LOGIN_DISABLED');
    assert.equal(await instance.magicCodeOffered(), false);
    await settings.update({ ENABLE_MAGIC_LINK_LOGIN: null }, null);
    await instance.assertSignUpAllowed('email');
  });

  it('the public description reports secrets as booleans only; an update is audited with the field names', async () => {
    await settings.update({ UNSPLASH_ACCESS_KEY: 'unsplash-secret-value', GOOGLE_CLIENT_ID: 'gid' }, null);
    const info = await instance.info();
    assert.equal(info.config.has_unsplash_configured, true);
    assert.equal(info.config.is_google_enabled, false, 'an id without a secret does not enable the provider');
    assert.equal(info.instance.workspaces_exist, true);
    assert.equal(JSON.stringify(info).includes('unsplash-secret-value'), false);
    await settings.update({ UNSPLASH_ACCESS_KEY: null, GOOGLE_CLIENT_ID: null }, null);

    const updated = await instance.update({ instance_name: 'Domain tests' });
    assert.equal(updated.instance_name, 'Domain tests');
    const [row] = await d.sql<{ metadata: { set: string[] } }>(
      "SELECT metadata FROM audit_logs WHERE event = 'instance.settings_changed' AND target_id = $1 ORDER BY created_at DESC LIMIT 1",
      [updated.id],
    );
    assert.deepEqual(row.metadata.set, ['instance_name']);
  });

  it('a workspace slug is available unless taken in any case, restricted or malformed', async () => {
    const [{ slug }] = await d.sql<{ slug: string }>('SELECT slug FROM workspaces WHERE id = $1', [p.workspaceId]);
    assert.equal(await instance.isSlugAvailable(slug), false);
    assert.equal(await instance.isSlugAvailable(slug.toUpperCase()), false);
    assert.equal(await instance.isSlugAvailable(`free-${randomUUID().slice(0, 8)}`), true);
    assert.equal(await instance.isSlugAvailable('api'), false);
    assert.equal(await instance.isSlugAvailable('has space'), false);
    const page = await instance.listWorkspaces({ perPage: 50 }, slug.toUpperCase());
    assert.deepEqual(
      page.results.map((w) => w.id),
      [p.workspaceId],
    );
    assert.equal(page.results[0].owner?.id, p.userId);
    assert.equal(page.results[0].total_projects, 1);
  });

  it('admin sign-in: only an active instance admin with the right password; every refusal is the same error and is audited', async () => {
    await rejectsWith(
      admins.setUp({ ...TEST_ADMIN, first_name: 'A', last_name: 'B', company_name: 'C' }, client),
      'ADMIN_ALREADY_EXIST',
    );
    await rejectsWith(
      admins.signIn({ email: TEST_ADMIN.email, password: 'wrong' }, client),
      'ADMIN_AUTHENTICATION_FAILED',
    );
    await rejectsWith(
      admins.signIn({ email: p.email, password: 'correct horse 1' }, client),
      'ADMIN_AUTHENTICATION_FAILED',
    );
    await rejectsWith(
      admins.signIn({ email: 'nobody@example.com', password: 'correct horse 1' }, client),
      'ADMIN_AUTHENTICATION_FAILED',
    );
    const failed = await d.sql(
      "SELECT 1 FROM audit_logs WHERE event = 'auth.sign_in.failed' AND metadata->>'site' = 'instance_admin'",
    );
    assert.equal(failed.length, 3);
    const signedIn = await admins.signIn(
      { email: ` ${TEST_ADMIN.email.toUpperCase()} `, password: TEST_ADMIN.password },
      client,
    );
    const principal = await admins.verifyInstanceAdminToken(signedIn.access_token);
    assert.equal(principal?.email, TEST_ADMIN.email);
    assert.equal(await admins.verifyInstanceAdminToken(signedIn.refresh_token), null);

    // a refresh rotates both tokens: the old ones stop
    const rotated = await admins.refresh(signedIn.refresh_token);
    await rejectsWith(admins.refresh(signedIn.refresh_token), 'INVALID_REFRESH_TOKEN');
    assert.equal(await admins.verifyInstanceAdminToken(signedIn.access_token), null);
    const live = await admins.verifyInstanceAdminToken(rotated.access_token);
    assert.ok(live?.sessionId);
    await admins.signOut(live.sessionId);
    assert.equal(await admins.verifyInstanceAdminToken(rotated.access_token), null);
    await rejectsWith(admins.refresh(rotated.refresh_token), 'INVALID_REFRESH_TOKEN');
    assert.deepEqual(await admins.session(rotated.access_token), { is_authenticated: false });
  });

  it('admins: an unknown user cannot be added, nor one twice; the last admin stays; a removed admin’s sessions end', async () => {
    await rejectsWith(admins.add('nobody@example.com', p.userId), 'USER_DOES_NOT_EXIST');
    const added = await admins.add(p.email.toUpperCase(), p.userId);
    await rejectsWith(admins.add(p.email, p.userId), 'ADMIN_USER_ALREADY_EXIST');
    const session = await admins.signIn({ email: p.email, password: 'correct horse 1' }, client);
    assert.ok(await admins.verifyInstanceAdminToken(session.access_token));
    await admins.remove(added.id as string);
    assert.equal(await admins.verifyInstanceAdminToken(session.access_token), null);
    await rejectsWith(admins.refresh(session.refresh_token), 'INVALID_REFRESH_TOKEN');
    await rejectsWith(admins.remove(randomUUID()), 'NOT_FOUND');
    const [only] = await admins.list();
    await rejectsWith(admins.remove(only.id as string), 'LAST_INSTANCE_ADMIN');
    assert.equal((await admins.list()).length, 1);
  });
});
