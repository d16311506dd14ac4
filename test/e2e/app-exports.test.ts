import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type * as ExcelJS from 'exceljs';
import type JSZipType from 'jszip';
import {
  addMember,
  addProjectMember,
  assertError,
  createAppProject,
  createWorkspace,
  signUp,
  SignedUp,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

// exceljs (a dependency) brings jszip; both read the exports back
const JSZip = require('jszip') as typeof JSZipType;
const Excel = require('exceljs') as typeof ExcelJS;

type Row = Record<string, unknown>;

/** The files of a zip, by name. */
async function unzip(data: Buffer): Promise<Map<string, Buffer>> {
  const zip = await JSZip.loadAsync(data);
  const out = new Map<string, Buffer>();
  for (const name of Object.keys(zip.files)) out.set(name, await zip.files[name].async('nodebuffer'));
  return out;
}

/** A CSV with every field quoted (what the export writes) as rows of strings. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else if (c !== '\r') field += c;
  }
  return rows;
}

/**
 * Work item exports (Plane 0.25.3 `ExportIssuesEndpoint`, `bgtasks/export_task.py`): queued,
 * written in the background, stored, listed with a members-only download link, downloaded and
 * read back in each format.
 */
describe('App API: work item exports', () => {
  let t: TestApp;
  let ada: SignedUp; // workspace Admin
  let max: SignedUp; // workspace Member, in project P only
  let gus: SignedUp; // workspace Guest
  let out: SignedUp; // another workspace's Admin
  let ws: { id: string; slug: string };
  let other: { id: string; slug: string };
  let p: { id: string; identifier: string };
  let q: { id: string; identifier: string };
  const bearer = (u: SignedUp) => ({ Authorization: `Bearer ${u.token}` });
  const api = () => `/api/workspaces/${ws.slug}`;

  /** Waits until the newest export leaves queued/processing; answers it. */
  async function settled(u: SignedUp): Promise<Row> {
    for (let i = 0; i < 200; i++) {
      const res = await t.api.get(`${api()}/export-issues/?per_page=10&cursor=10:0:0`).set(bearer(u));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const newest = res.body.results[0] as Row;
      if (newest.status === 'completed' || newest.status === 'failed') return newest;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the export did not finish');
  }

  /** Downloads an export's zip through its `url`. */
  async function download(u: SignedUp, url: string): Promise<Map<string, Buffer>> {
    const res = await t.api
      .get(new URL(url).pathname)
      .set(bearer(u))
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/zip');
    return unzip(res.body as Buffer);
  }

  before(async () => {
    t = await startTestApp();
    [ada, max, gus, out] = [await signUp(t), await signUp(t), await signUp(t), await signUp(t)];
    ws = await createWorkspace(t, ada.token);
    other = await createWorkspace(t, out.token);
    await addMember(t, ws.id, max.userId, 15);
    await addMember(t, ws.id, gus.userId, 5);
    p = await createAppProject(t, ada.token, ws.slug);
    q = await createAppProject(t, ada.token, ws.slug);
    await addProjectMember(t, ws.id, p.id, max.userId, 15);
    await t.sql(`UPDATE users SET first_name = 'Ada', last_name = 'Lovelace' WHERE id = $1`, [ada.userId]);
    const base = `${api()}/projects/${p.id}`;
    const label = (await t.api.post(`${base}/issue-labels/`).set(bearer(ada)).send({ name: 'Bug', color: '#ff0000' }))
      .body.id as string;
    // 1,200 work items in P (three batches), a quote and a comma in one name; one in Q
    const rows = Array.from({ length: 1200 }, (_, i) => i + 1);
    const first = await t.api
      .post(`${base}/issues/`)
      .set(bearer(ada))
      .send({
        name: 'Say "hi", world',
        priority: 'high',
        assignee_ids: [ada.userId],
        label_ids: [label],
        start_date: '2025-01-06',
      });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    await t.sql(
      `INSERT INTO issues (workspace_id, project_id, name, priority, sequence_id, sort_order, created_by_id, state_id)
       SELECT $1, $2, 'bulk ' || n, 'none', n + 1, 65535, $3, (SELECT state_id FROM issues WHERE id = $4)
       FROM unnest($5::int[]) AS n`,
      [ws.id, p.id, ada.userId, first.body.id, rows.slice(0, 1199)],
    );
    const inQ = await t.api.post(`${api()}/projects/${q.id}/issues/`).set(bearer(ada)).send({ name: 'in Q' });
    assert.equal(inQ.status, 201);
  });

  after(async () => {
    await t?.close();
  });

  it('CSV of one project: queued, then completed; the link downloads a zip whose CSV reads back', async () => {
    const res = await t.api
      .post(`${api()}/export-issues/`)
      .set(bearer(ada))
      .send({ provider: 'csv', project: [p.id] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { message: 'Once the export is ready you will be able to download it' });
    const e = await settled(ada);
    assert.equal(e.status, 'completed', JSON.stringify(e));
    assert.deepEqual(Object.keys(e).sort(), [
      'created_at',
      'created_by',
      'id',
      'initiated_by',
      'initiated_by_detail',
      'project',
      'provider',
      'status',
      'token',
      'updated_at',
      'updated_by',
      'url',
    ]);
    assert.deepEqual(e.project, [p.id]);
    assert.equal(e.provider, 'csv');
    assert.equal((e.initiated_by_detail as Row).id, ada.userId);
    const files = await download(ada, String(e.url));
    assert.deepEqual([...files.keys()], [`${ws.id}.csv`]);
    const csv = parseCsv(files.get(`${ws.id}.csv`)!.toString('utf8'));
    assert.equal(csv[0][0], 'ID');
    assert.equal(csv[0].length, 21);
    assert.equal(csv.length, 1 + 1200);
    const one = csv[1];
    assert.equal(one[0], `${p.identifier}-1`);
    assert.equal(one[2], 'Say "hi", world');
    assert.equal(one[5], 'Mon, 06 Jan 2025');
    assert.equal(one[7], 'high');
    assert.equal(one[8], 'Ada Lovelace');
    assert.equal(one[9], 'Ada Lovelace');
    assert.equal(one[10], 'Bug');
    assert.match(one[17], /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} [AP]M UTC\+0000$/);
    assert.equal(csv[1200][0], `${p.identifier}-1200`);
    // the Member downloads it too; a Guest cannot; another workspace gets 404
    assert.equal((await download(max, String(e.url))).size, 1);
    assertError(await t.api.get(new URL(String(e.url)).pathname).set(bearer(gus)), 403, 'PERMISSION_DENIED');
    assertError(
      await t.api.get(`/api/workspaces/${other.slug}/export-issues/${e.id}/download/`).set(bearer(out)),
      404,
      'NOT_FOUND',
    );
    assert.equal((await t.api.get(new URL(String(e.url)).pathname)).status, 401);
  });

  it('JSON, one file per project; projects the caller is not in are left out', async () => {
    const res = await t.api
      .post(`${api()}/export-issues/`)
      .set(bearer(max))
      .send({ provider: 'json', project: [p.id, q.id], multiple: true });
    assert.equal(res.status, 200);
    const e = await settled(max);
    assert.equal(e.status, 'completed');
    assert.deepEqual(e.project, [p.id]);
    const files = await download(max, String(e.url));
    assert.deepEqual([...files.keys()], [`${p.id}.json`]);
    const items = JSON.parse(files.get(`${p.id}.json`)!.toString('utf8')) as Row[];
    assert.equal(items.length, 1200);
    assert.equal(items[0].ID, `${p.identifier}-1`);
    assert.equal(items[0].Labels, 'Bug');
    assert.equal(items[0]['Cycle Name'], null);
  });

  it('XLSX of every project of the caller (no project given)', async () => {
    const res = await t.api.post(`${api()}/export-issues/`).set(bearer(ada)).send({ provider: 'xlsx' });
    assert.equal(res.status, 200);
    const e = await settled(ada);
    assert.equal(e.status, 'completed', JSON.stringify(e));
    assert.equal((e.project as string[]).length, 2);
    const files = await download(ada, String(e.url));
    const book = new Excel.Workbook();
    await book.xlsx.load(files.get(`${ws.id}.xlsx`)! as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    assert.equal(sheet.getRow(1).getCell(1).value, 'ID');
    assert.equal(sheet.rowCount, 1 + 1201);
  });

  it('lists newest first in Plane’s page envelope; 400 without per_page and cursor', async () => {
    const res = await t.api.get(`${api()}/export-issues/?per_page=2&cursor=2:0:0`).set(bearer(ada));
    assert.equal(res.status, 200);
    assert.equal(res.body.results.length, 2);
    assert.equal(res.body.total_count, 3);
    assert.equal(res.body.next_cursor, '2:1:0');
    assert.equal(res.body.results[0].provider, 'xlsx');
    const next = await t.api.get(`${api()}/export-issues/?per_page=2&cursor=${res.body.next_cursor}`).set(bearer(ada));
    assert.equal(next.body.results[0].provider, 'csv');
    const bad = assertError(
      await t.api.get(`${api()}/export-issues/`).set(bearer(ada)),
      400,
      'INVALID_QUERY_PARAMETER',
    );
    assert.equal(bad.detail, 'per_page and cursor are required');
  });

  it('validation and roles', async () => {
    const bad = assertError(
      await t.api.post(`${api()}/export-issues/`).set(bearer(ada)).send({ provider: 'pdf' }),
      400,
      'EXPORT_PROVIDER_NOT_FOUND',
    );
    assert.equal(bad.detail, "Provider 'pdf' not found.");
    assertError(
      await t.api.post(`${api()}/export-issues/`).set(bearer(ada)).send({}),
      400,
      'EXPORT_PROVIDER_NOT_FOUND',
    );
    assertError(
      await t.api
        .post(`${api()}/export-issues/`)
        .set(bearer(ada))
        .send({ provider: 'csv', project: ['nope'] }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(
      await t.api.post(`${api()}/export-issues/`).set(bearer(gus)).send({ provider: 'csv' }),
      403,
      'PERMISSION_DENIED',
    );
    assertError(
      await t.api.get(`${api()}/export-issues/?per_page=10&cursor=10:0:0`).set(bearer(gus)),
      403,
      'PERMISSION_DENIED',
    );
    assert.equal((await t.api.post(`${api()}/export-issues/`).set(bearer(out)).send({ provider: 'csv' })).status, 404);
    // another workspace's project
    const foreign = await createAppProject(t, out.token, other.slug);
    assertError(
      await t.api
        .post(`${api()}/export-issues/`)
        .set(bearer(ada))
        .send({ provider: 'csv', project: [foreign.id] }),
      404,
      'PROJECT_NOT_FOUND',
    );
    assertError(
      await t.api.get(`${api()}/export-issues/00000000-0000-4000-8000-000000000000/download/`).set(bearer(ada)),
      404,
      'NOT_FOUND',
    );
  });

  it('an export is listed and downloaded only by its initiator and by those who may read all its projects (stricter than Plane)', async () => {
    const [sam, gil] = [await signUp(t), await signUp(t)];
    await addMember(t, ws.id, sam.userId, 15);
    await addMember(t, ws.id, gil.userId, 15);
    // a secret project: sam a Member of it, gil a Guest of it, max not in it
    const secret = await createAppProject(t, ada.token, ws.slug, { network: 0 });
    await addProjectMember(t, ws.id, secret.id, sam.userId, 15);
    await addProjectMember(t, ws.id, secret.id, gil.userId, 5);
    const made = await t.api
      .post(`${api()}/export-issues/`)
      .set(bearer(ada))
      .send({ provider: 'csv', project: [secret.id] });
    assert.equal(made.status, 200);
    const e = await settled(ada);
    assert.equal(e.status, 'completed', JSON.stringify(e));
    assert.deepEqual(e.project, [secret.id]);
    const path = `${api()}/export-issues/${e.id}/download/`;
    const listed = async (u: SignedUp) => {
      const res = await t.api.get(`${api()}/export-issues/?per_page=100&cursor=100:0:0`).set(bearer(u));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return (res.body.results as Row[]).some((x) => x.id === e.id);
    };
    // a Member outside the project: not listed, 404 on the download
    assert.equal(await listed(max), false);
    assertError(await t.api.get(path).set(bearer(max)), 404, 'NOT_FOUND');
    // a project Guest may not read others' work items: not listed, 404, until guest_view_all_features
    assert.equal(await listed(gil), false);
    assertError(await t.api.get(path).set(bearer(gil)), 404, 'NOT_FOUND');
    await t.sql('UPDATE projects SET guest_view_all_features = true WHERE id = $1', [secret.id]);
    assert.equal(await listed(gil), true);
    assert.equal((await t.api.get(path).set(bearer(gil))).status, 200);
    // a Member of every project of the export, and its creator
    assert.equal(await listed(sam), true);
    assert.equal((await t.api.get(path).set(bearer(sam))).status, 200);
    assert.equal(await listed(ada), true);
    // the creator keeps their own export after leaving its project
    const own = await t.api
      .post(`${api()}/export-issues/`)
      .set(bearer(sam))
      .send({ provider: 'json', project: [secret.id] });
    assert.equal(own.status, 200);
    const mine = await settled(sam);
    assert.equal(mine.status, 'completed', JSON.stringify(mine));
    await t.sql('UPDATE project_members SET is_active = false WHERE project_id = $1 AND member_id = $2', [
      secret.id,
      sam.userId,
    ]);
    const after = await t.api.get(`${api()}/export-issues/?per_page=100&cursor=100:0:0`).set(bearer(sam));
    assert.deepEqual(
      (after.body.results as Row[]).map((x) => x.id),
      [mine.id],
    );
    assert.equal((await t.api.get(`${api()}/export-issues/${mine.id}/download/`).set(bearer(sam))).status, 200);
    assertError(await t.api.get(path).set(bearer(sam)), 404, 'NOT_FOUND');
    assertError(await t.api.get(`${api()}/export-issues/${mine.id}/download/`).set(bearer(max)), 404, 'NOT_FOUND');
  });
});
