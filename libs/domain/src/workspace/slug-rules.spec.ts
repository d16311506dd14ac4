// Workspace slugs: Plane's alphabet and the web app's paths a slug must not shadow, no database.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isRestrictedSlug, WORKSPACE_SLUG_PATTERN } from './slug-rules';

describe('workspace slug rules', () => {
  it("takes DRF's slug alphabet, 1 to 48 characters", () => {
    for (const slug of ['acme', 'Acme-Corp_2', 'a', 'x'.repeat(48)]) assert.ok(WORKSPACE_SLUG_PATTERN.test(slug), slug);
    for (const slug of ['', 'x'.repeat(49), 'a b', 'acmé', 'a/b', 'a.b', 'a\nb'])
      assert.ok(!WORKSPACE_SLUG_PATTERN.test(slug), JSON.stringify(slug));
  });

  it("refuses the web app's own paths, in any case", () => {
    for (const slug of ['god-mode', 'GOD-MODE', 'api', 'invitations', 'create-workspace', '404'])
      assert.ok(isRestrictedSlug(slug), slug);
    for (const slug of ['acme', 'god-mode-2', 'apis']) assert.ok(!isRestrictedSlug(slug), slug);
  });
});
