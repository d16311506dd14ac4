// The webhook URL guard's rules on addresses given literally (no DNS, no database).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WebhookUrlGuard } from './url-guard';

const refused = (code: string) => (err: { code?: string }) => err.code === code;

describe('webhook URL guard', () => {
  const guard = new WebhookUrlGuard([]);

  it('takes a public address, and connects to the address it checked', async () => {
    const target = await guard.check('https://93.184.215.14:8443/hook?x=1');
    assert.equal(target.address, '93.184.215.14');
    assert.equal(target.family, 4);
    assert.equal(target.url.port, '8443');
  });

  it('refuses loopback, private, link-local, shared and reserved addresses (v4, v6 and v4-mapped)', async () => {
    for (const url of [
      'http://127.0.0.1/',
      'http://10.1.2.3/',
      'http://172.16.0.1/',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://100.64.0.1/',
      'http://0.0.0.0/',
      'http://[::1]/',
      'http://[fd00::1]/',
      'http://[fe80::1]/',
      'http://[::ffff:127.0.0.1]/',
    ])
      await assert.rejects(guard.check(url), refused('WEBHOOK_URL_NOT_ALLOWED'), url);
  });

  it('refuses other schemes and credentials in the URL; a string that is no URL is a validation error', async () => {
    await assert.rejects(guard.check('ftp://93.184.215.14/'), refused('WEBHOOK_URL_NOT_ALLOWED'));
    await assert.rejects(guard.check('https://user:pw@93.184.215.14/'), refused('VALIDATION_ERROR'));
    await assert.rejects(guard.check('not a url'), refused('VALIDATION_ERROR'));
  });

  it('WEBHOOK_ALLOWED_HOSTS lets named addresses and ranges through', async () => {
    const allowing = new WebhookUrlGuard(['10.0.0.0/8', '127.0.0.1']);
    assert.equal((await allowing.check('http://10.9.8.7/')).address, '10.9.8.7');
    assert.equal((await allowing.check('http://127.0.0.1:9000/')).address, '127.0.0.1');
    await assert.rejects(allowing.check('http://192.168.0.1/'), refused('WEBHOOK_URL_NOT_ALLOWED'));
  });
});
