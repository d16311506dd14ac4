import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { AttachmentService, IssueCommandService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { domainSuite, rejectsWith, Seeded } from '../support/domain-fixtures';

/** `FILE_SIZE_LIMIT` of this file's instance (bytes) */
const LIMIT = 1000;

describe('domain: work item attachment rules (AttachmentService): type and size, the two-step upload, signatures, history', () => {
  let d: DomainContext;
  let attachments: AttachmentService;
  let p: Seeded;
  let other: Seeded;
  let issueId: string;
  let slug: string;
  domainSuite({ projects: 2, env: { FILE_SIZE_LIMIT: String(LIMIT) } }, async (s) => {
    ({ d, p, other } = s);
    attachments = d.get(AttachmentService);
    issueId = (await d.get(IssueCommandService).create(p.ctx, { name: 'With files' })).id as string;
    [{ slug }] = await d.sql<{ slug: string }>('SELECT slug FROM workspaces WHERE id = $1', [p.workspaceId]);
  });

  const history = (field = 'attachment') =>
    d.sql<{ verb: string; new_value: string | null; old_value: string | null }>(
      'SELECT verb, new_value, old_value FROM issue_activities WHERE issue_id = $1 AND field = $2 ORDER BY created_at',
      [issueId, field],
    );
  /** the `expires` and `signature` of a URL Meridian signed */
  const signatureOf = (url: string) => {
    const u = new URL(url);
    return [u.searchParams.get('expires') ?? undefined, u.searchParams.get('signature') ?? undefined] as const;
  };

  it('refuses a type not allowed, an empty or too large file, a work item of another project; nothing is recorded', async () => {
    const refused = await rejectsWith(
      attachments.create(p.ctx, slug, issueId, { name: 'x.exe', type: 'application/x-msdownload', size: 10 }),
      'ATTACHMENT_TYPE_NOT_ALLOWED',
    );
    assert.ok(Array.isArray(refused.extra.allowed_types));
    await rejectsWith(
      attachments.create(p.ctx, slug, issueId, { name: 'a.png', type: 'image/png', size: LIMIT + 1 }),
      'ATTACHMENT_TOO_LARGE',
    );
    await rejectsWith(
      attachments.create(p.ctx, slug, issueId, { name: 'a.png', type: 'image/png', size: 0 }),
      'VALIDATION_ERROR',
    );
    await rejectsWith(
      attachments.create(p.ctx, slug, issueId, { name: '  ', type: 'image/png', size: 5 }),
      'VALIDATION_ERROR',
    );
    const theirIssue = (await d.get(IssueCommandService).create(other.ctx, { name: 'Theirs' })).id as string;
    await rejectsWith(
      attachments.create(p.ctx, slug, theirIssue, { name: 'a.png', type: 'image/png', size: 5 }),
      'NOT_FOUND',
    );
    await rejectsWith(
      attachments.upload(p.ctx, slug, issueId, { name: 'big.txt', type: 'text/plain', data: Buffer.alloc(LIMIT + 1) }),
      'ATTACHMENT_TOO_LARGE',
    );
    const rows = await d.sql('SELECT 1 FROM file_assets WHERE entity_identifier = $1', [issueId]);
    assert.equal(rows.length, 0);
  });

  it('two steps: not listed nor complete until stored with its declared size; complete writes history once; a signed URL checks its signature', async () => {
    const made = (await attachments.create(p.ctx, slug, issueId, {
      name: 'notes.txt',
      type: 'text/plain',
      size: 5,
    })) as {
      asset_id: string;
      upload_data: { url: string };
    };
    assert.deepEqual(await attachments.list(p.projectId, issueId), []);
    await rejectsWith(attachments.complete(p.ctx, issueId, made.asset_id), 'ATTACHMENT_NOT_UPLOADED');
    await rejectsWith(attachments.downloadUrl(p.projectId, issueId, made.asset_id), 'ATTACHMENT_NOT_UPLOADED');

    const [expires, signature] = signatureOf(made.upload_data.url);
    await rejectsWith(attachments.signedAsset('upload', made.asset_id, expires, 'f'.repeat(64)), 'INVALID_SIGNATURE');
    await rejectsWith(attachments.signedAsset('download', made.asset_id, expires, signature), 'INVALID_SIGNATURE');
    const target = await attachments.signedAsset('upload', made.asset_id, expires, signature);
    assert.equal(target.size, 5);
    await rejectsWith(attachments.storeUpload(target, Buffer.from('too long')), 'ATTACHMENT_TOO_LARGE');
    await rejectsWith(
      attachments.storeUpload(target, Buffer.from('hello'), 'image/png'),
      'ATTACHMENT_TYPE_NOT_ALLOWED',
    );
    await attachments.storeUpload(target, Buffer.from('hel'));
    await rejectsWith(attachments.complete(p.ctx, issueId, made.asset_id), 'ATTACHMENT_NOT_UPLOADED');
    await attachments.storeUpload(target, Buffer.from('hello'));
    await attachments.complete(p.ctx, issueId, made.asset_id);
    await attachments.complete(p.ctx, issueId, made.asset_id);
    assert.deepEqual(
      (await history()).map((h) => h.verb),
      ['created'],
    );
    assert.deepEqual(
      (await attachments.list(p.projectId, issueId)).map((a) => a.id),
      [made.asset_id],
    );
    await rejectsWith(
      attachments.storeUpload(
        await attachments.signedAsset('upload', made.asset_id, expires, signature),
        Buffer.from('x'),
      ),
      'CONFLICT',
    );
    const [dExpires, dSignature] = signatureOf(await attachments.downloadUrl(p.projectId, issueId, made.asset_id));
    const download = await attachments.signedAsset('download', made.asset_id, dExpires, dSignature);
    assert.equal((await attachments.readDownload(download)).toString(), 'hello');
    // the attachment is not reachable through another project
    await rejectsWith(attachments.downloadUrl(other.projectId, issueId, made.asset_id), 'NOT_FOUND');
  });

  it('a file received whole is stored and uploaded in one go; removing it writes history and drops the stored file', async () => {
    const saved = (await attachments.upload(p.ctx, slug, issueId, {
      name: 'plan.txt',
      type: 'Text/Plain; charset=utf-8',
      data: Buffer.from('the plan'),
    })) as { id: string };
    const listed = (await attachments.list(p.projectId, issueId)) as Array<{
      id: string;
      attributes: { name: string };
    }>;
    assert.ok(listed.some((a) => a.id === saved.id && a.attributes.name === 'plan.txt'));
    const [dExpires, dSignature] = signatureOf(await attachments.downloadUrl(p.projectId, issueId, saved.id));
    const obj = await attachments.signedAsset('download', saved.id, dExpires, dSignature);
    assert.equal((await attachments.readDownload(obj)).toString(), 'the plan');

    // the App surface: only the uploader or a project Admin deletes
    const member = { ...p.ctx, userId: randomUUID(), role: 15 };
    await rejectsWith(attachments.remove(member, issueId, saved.id, 'app'), 'PERMISSION_DENIED');
    await attachments.remove(p.ctx, issueId, saved.id);
    const h = await history();
    assert.deepEqual(h.at(-1), { verb: 'deleted', new_value: null, old_value: 'plan.txt' });
    await rejectsWith(attachments.readDownload(obj), 'NOT_FOUND');
    await rejectsWith(attachments.signedAsset('download', saved.id, dExpires, dSignature), 'NOT_FOUND');
    assert.equal(
      (await attachments.list(p.projectId, issueId)).some((a) => a.id === saved.id),
      false,
    );
  });
});
