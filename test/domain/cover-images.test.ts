import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { CoverImageService, InstanceSettings } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { domainSuite, rejectsWith } from '../support/domain-fixtures';

/**
 * Unsplash is the one outside service here: `fetch` is replaced for the calls that would reach it,
 * so the test sees what Meridian asks and answers with what Unsplash would.
 */
describe('domain: cover images (CoverImageService): Unsplash through the instance key, never without it', () => {
  let d: DomainContext;
  let covers: CoverImageService;
  let settings: InstanceSettings;
  domainSuite({ projects: 0 }, (s) => {
    d = s.d;
    covers = d.get(CoverImageService);
    settings = d.get(InstanceSettings);
  });
  const realFetch = globalThis.fetch;
  const asked: string[] = [];
  const answerWith = (status: number, body: unknown) => {
    asked.length = 0;
    globalThis.fetch = (async (input: string | URL | Request) => {
      asked.push(String(input));
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
  };
  afterEach(() => {
    globalThis.fetch = realFetch;
    asked.length = 0;
  });

  it('without a key: no photos and no request; the stock project covers are none', async () => {
    answerWith(200, [{ id: 'should not be asked' }]);
    assert.deepEqual(await covers.unsplash({ page: 1, perPage: 20 }), []);
    assert.deepEqual(asked, []);
    assert.deepEqual(covers.projectCovers(), []);
  });

  it('with a key: the latest photos, or a search with the query; the key goes to Unsplash only', async () => {
    await settings.update({ UNSPLASH_ACCESS_KEY: 'unsplash-key' }, null);
    answerWith(200, [{ id: 'p1' }]);
    assert.deepEqual(await covers.unsplash({ page: 2, perPage: 5 }), [{ id: 'p1' }]);
    const latest = new URL(asked[0]);
    assert.equal(`${latest.origin}${latest.pathname}`, 'https://api.unsplash.com/photos/');
    assert.deepEqual(Object.fromEntries(latest.searchParams), { client_id: 'unsplash-key', page: '2', per_page: '5' });
    answerWith(200, { total: 1, total_pages: 1, results: [{ id: 'm1' }] });
    const found = (await covers.unsplash({ query: 'mountains & lakes', page: 1, perPage: 10 })) as {
      results: unknown[];
    };
    assert.deepEqual(found.results, [{ id: 'm1' }]);
    const search = new URL(asked[0]);
    assert.equal(search.pathname, '/search/photos/');
    assert.equal(search.searchParams.get('query'), 'mountains & lakes');
  });

  it('an error answer or no answer from Unsplash is UNSPLASH_UNAVAILABLE', async () => {
    await settings.update({ UNSPLASH_ACCESS_KEY: 'unsplash-key' }, null);
    answerWith(401, { errors: ['OAuth error: The access token is invalid'] });
    await rejectsWith(covers.unsplash({ page: 1, perPage: 20 }), 'UNSPLASH_UNAVAILABLE');
    globalThis.fetch = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    await rejectsWith(covers.unsplash({ page: 1, perPage: 20 }), 'UNSPLASH_UNAVAILABLE');
  });
});
