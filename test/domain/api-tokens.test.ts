import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sha256 } from '#common';
import { ApiTokenService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { domainSuite, rejectsWith, Seeded } from '../support/domain-fixtures';

describe('domain: API keys (ApiTokenService)', () => {
  let d: DomainContext;
  let keys: ApiTokenService;
  let p: Seeded;
  let stranger: Seeded;
  domainSuite({ projects: 2 }, (s) => {
    ({
      d,
      seeded: [p, stranger],
    } = s);
    keys = d.get(ApiTokenService);
  });

  it('a new key is shown once, stored as its digest, and resolves to its user and workspace', async () => {
    const key = await keys.create(p.workspaceId, { id: p.userId }, { label: ' ci ' });
    assert.match(key.token, /^plane_api_[0-9a-f]{32}$/); // Plane's prefix (plane/db/models/api.py)
    assert.equal(key.label, 'ci');
    const rows = await d.sql<{ token_digest: string }>('SELECT token_digest FROM api_tokens WHERE id = $1', [key.id]);
    assert.deepEqual(rows, [{ token_digest: sha256(key.token) }]);
    assert.equal(JSON.stringify(await keys.get(p.workspaceId, p.userId, key.id)).includes(key.token), false);
    const principal = await keys.verifyDigest(sha256(key.token));
    assert.equal(principal?.userId, p.userId);
    assert.deepEqual(principal?.apiToken, { id: key.id, workspaceId: p.workspaceId });
    assert.equal(await keys.verifyDigest(sha256(`${key.token}x`)), null);
  });

  it('a key stops resolving when deactivated, when deleted, and when its user leaves the workspace', async () => {
    const off = await keys.create(p.workspaceId, { id: p.userId }, {});
    await keys.update(p.workspaceId, p.userId, off.id, { is_active: false });
    assert.equal(await keys.verifyDigest(sha256(off.token)), null);

    const gone = await keys.create(p.workspaceId, { id: p.userId }, {});
    await keys.remove(p.workspaceId, p.userId, gone.id);
    assert.equal(await keys.verifyDigest(sha256(gone.token)), null);
    await rejectsWith(keys.get(p.workspaceId, p.userId, gone.id), 'NOT_FOUND');

    const member = await keys.create(p.workspaceId, { id: p.userId }, {});
    assert.ok(await keys.verifyDigest(sha256(member.token)));
    await d.sql('UPDATE workspace_members SET is_active = false WHERE workspace_id = $1 AND member_id = $2', [
      p.workspaceId,
      p.userId,
    ]);
    try {
      assert.equal(await keys.verifyDigest(sha256(member.token)), null);
    } finally {
      await d.sql('UPDATE workspace_members SET is_active = true WHERE workspace_id = $1 AND member_id = $2', [
        p.workspaceId,
        p.userId,
      ]);
    }
  });

  it("another user's key, or one of another workspace, is NOT_FOUND; an expiry in the past is a VALIDATION_ERROR", async () => {
    const mine = await keys.create(p.workspaceId, { id: p.userId }, {});
    await rejectsWith(keys.get(p.workspaceId, stranger.userId, mine.id), 'NOT_FOUND');
    await rejectsWith(keys.update(stranger.workspaceId, p.userId, mine.id, { label: 'x' }), 'NOT_FOUND');
    await rejectsWith(keys.remove(p.workspaceId, stranger.userId, mine.id), 'NOT_FOUND');
    assert.ok(await keys.verifyDigest(sha256(mine.token)), 'the refused calls changed nothing');
    await rejectsWith(
      keys.create(p.workspaceId, { id: p.userId }, { expired_at: new Date(Date.now() - 1000) }),
      'VALIDATION_ERROR',
    );
    await rejectsWith(
      keys.update(p.workspaceId, p.userId, mine.id, { expired_at: new Date(Date.now() - 1000) }),
      'VALIDATION_ERROR',
    );
  });
});
