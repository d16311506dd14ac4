import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InstanceSettings, SecretBox } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { domainSuite, rejectsWith } from '../support/domain-fixtures';

describe('domain: instance configuration (InstanceSettings): checked values, sealed secrets, the fallbacks, the audit', () => {
  let d: DomainContext;
  let settings: InstanceSettings;
  domainSuite({ projects: 0, env: { GITLAB_HOST: 'https://gitlab.example.com' } }, (s) => {
    d = s.d;
    settings = d.get(InstanceSettings);
  });

  const entry = async (key: string) => (await settings.list()).find((e) => e.key === key)!;

  it('a bad value is a 422 naming each key, and nothing is written when one key is bad', async () => {
    const bad = await rejectsWith(
      settings.update(
        {
          EMAIL_PORT: '70000',
          ENABLE_SIGNUP: 'yes',
          NOT_A_KEY: '1',
          GITLAB_HOST: 'gitlab.example.com',
          EMAIL_HOST: 42,
          EMAIL_FROM: 'ok@example.com',
        },
        null,
      ),
      'VALIDATION_ERROR',
    );
    assert.deepEqual(Object.keys(bad.extra.errors as object).sort(), [
      'EMAIL_HOST',
      'EMAIL_PORT',
      'ENABLE_SIGNUP',
      'GITLAB_HOST',
      'NOT_A_KEY',
    ]);
    assert.equal((await entry('EMAIL_FROM')).source, 'default');
    await rejectsWith(settings.update({}, null), 'VALIDATION_ERROR');
    const rows = await d.sql('SELECT 1 FROM instance_configurations');
    assert.equal(rows.length, 0);
  });

  it('a value comes from the database, else the environment, else the default; null clears back', async () => {
    assert.deepEqual(
      [(await entry('GITLAB_HOST')).source, await settings.get('GITLAB_HOST')],
      ['environment', 'https://gitlab.example.com'],
    );
    assert.deepEqual([(await entry('EMAIL_PORT')).source, await settings.get('EMAIL_PORT')], ['default', '587']);
    const [changed] = await settings.update({ EMAIL_PORT: ' 2525 ' }, null);
    assert.equal(changed.value, '2525');
    assert.equal(changed.source, 'database');
    assert.equal(await settings.get('EMAIL_PORT'), '2525');
    await settings.update({ EMAIL_PORT: null }, null);
    assert.equal(await settings.get('EMAIL_PORT'), '587');
    // a provider is on by default only with both its id and secret
    assert.equal(await settings.isProviderEnabled('github'), false);
    await settings.update({ GITHUB_CLIENT_ID: 'id', GITHUB_CLIENT_SECRET: 'secret' }, null);
    assert.equal(await settings.isProviderEnabled('github'), true);
    await settings.update({ IS_GITHUB_ENABLED: '0' }, null);
    assert.equal(await settings.isProviderEnabled('github'), false);
    assert.equal(await settings.providerCredentials('github'), null);
    await settings.update({ IS_GITHUB_ENABLED: null, GITHUB_CLIENT_ID: null, GITHUB_CLIENT_SECRET: null }, null);
  });

  it('a secret is stored sealed, shown masked, kept when the mask is sent back, and never named with its value in the audit', async () => {
    const [shown] = await settings.update({ LLM_API_KEY: 'sk-very-secret' }, null);
    assert.equal(shown.value, '********');
    assert.equal(shown.is_set, true);
    const [row] = await d.sql<{ value: string; is_encrypted: boolean }>(
      "SELECT value, is_encrypted FROM instance_configurations WHERE key = 'LLM_API_KEY'",
    );
    assert.equal(row.is_encrypted, true);
    assert.equal(row.value.includes('sk-very-secret'), false);
    assert.equal(new SecretBox(d.config.secret.key).open(row.value), 'sk-very-secret');
    assert.equal(await settings.get('LLM_API_KEY'), 'sk-very-secret');
    await settings.update({ LLM_API_KEY: '********' }, null);
    assert.equal(await settings.get('LLM_API_KEY'), 'sk-very-secret', 'the mask sent back changes nothing');
    const audit = await d.sql<{ metadata: Record<string, unknown> }>(
      "SELECT metadata FROM audit_logs WHERE event = 'instance.settings_changed'",
    );
    assert.ok(audit.some((a) => (a.metadata.set as string[]).includes('LLM_API_KEY')));
    assert.equal(JSON.stringify(audit).includes('sk-very-secret'), false);
    // a value sealed under another SECRET_KEY reads as unset
    await d.sql("UPDATE instance_configurations SET value = $1 WHERE key = 'LLM_API_KEY'", [
      new SecretBox('another secret key of enough length 0123456789').seal('other'),
    ]);
    settings.invalidate();
    assert.equal(await settings.get('LLM_API_KEY'), '');
  });
});
