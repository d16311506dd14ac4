import { APP_CONFIG, AppConfig, isUuid, MeridianError, Page, PageRequest } from '#common';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { OBJECT_STORAGE } from '../attachment';
import type { ObjectStorage } from '../attachment';
import { userLiteView } from '../user';
import { exportWriter, zipFiles } from './export-files';
import { EXPORT_PROVIDERS, ExporterHistory, ExportProvider } from './exporter-history.entity';
import { EXPORT_BATCH, ExporterRepository } from './exporter.repository';

/** What `POST export-issues/` asks (Plane's `ExportIssuesEndpoint.post`). */
export interface ExportRequest {
  provider?: unknown;
  /** project ids; empty or absent: every project the caller is an active member of */
  project?: unknown;
  /** one file per project (true) or one file for all (false) */
  multiple?: unknown;
}

/** Where the download route of an export lives, under the workspace. */
/** How long an export being written may go without a sign of life before another process takes it over. */
const LEASE_MS = 10 * 60_000;

const downloadPath = (slug: string, id: string) => `/api/workspaces/${slug}/export-issues/${id}/download/`;

/**
 * Work item exports (Plane 0.25.3 `app/views/exporter/base.py`, `bgtasks/export_task.py`): an
 * export is recorded `queued`, then written in the background by this process (one export at a
 * time, in the order asked): `processing`, the work items read `EXPORT_BATCH` at a time into one
 * file per project (`multiple`) or one for all, in CSV, JSON or XLSX, zipped and stored where the
 * assets are (local disk or S3), then `completed` with the members-only download link as `url`,
 * or `failed` with `reason`. Exports still `queued` when the process stops are picked up again at
 * the next start, and so are those left `processing` without a sign of life for ten minutes (the
 * writer renews its lease after each batch) (docs/decisions.md, "Analytics, exports and the home graphs").
 */
@Injectable()
export class ExporterService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Exporter');
  private chain: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly repo: ExporterRepository,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    // after start-up, not during it: the exports left queued (or abandoned) by the last run
    setImmediate(() => {
      this.repo
        .pending(LEASE_MS)
        .then((ids) => ids.forEach((id) => this.schedule(id)))
        .catch((err: unknown) => this.logger.warn({ err: String(err) }, 'Could not read the queued exports'));
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.chain;
  }

  /**
   * Records an export and queues it; 400 `EXPORT_PROVIDER_NOT_FOUND` for a provider other than
   * csv, json or xlsx; 422 for project ids that are not a list of UUIDs
   * (`VALIDATION_ERROR`); 404 `PROJECT_NOT_FOUND` for an id that is not a project of the workspace.
   * Projects the caller is not an active member of (or archived ones) are left out, as Plane's task does.
   */
  async request(workspaceId: string, userId: string, input: ExportRequest): Promise<{ message: string }> {
    const provider = input.provider;
    if (typeof provider !== 'string' || !(EXPORT_PROVIDERS as readonly string[]).includes(provider))
      throw new MeridianError(
        'EXPORT_PROVIDER_NOT_FOUND',
        `Provider '${provider === undefined ? false : String(provider)}' not found.`,
      );
    let asked: string[] | undefined;
    if (input.project !== undefined && input.project !== null) {
      if (!Array.isArray(input.project) || !input.project.every(isUuid))
        throw new MeridianError('VALIDATION_ERROR', 'project must be a list of project ids.');
      asked = input.project.length ? (input.project as string[]).map((v) => v.toLowerCase()) : undefined;
    }
    if (input.multiple !== undefined && input.multiple !== null && typeof input.multiple !== 'boolean')
      throw new MeridianError('VALIDATION_ERROR', 'multiple must be true or false.');
    if (asked) {
      const known = await this.repo.projectsOfWorkspace(workspaceId, asked);
      if (asked.some((id) => !known.has(id))) throw new MeridianError('PROJECT_NOT_FOUND');
    }
    const projects = await this.repo.exportableProjects(workspaceId, userId, asked);
    const row = await this.repo.create({
      workspaceId,
      project: projects,
      initiatedById: userId,
      createdById: userId,
      updatedById: userId,
      provider: provider as ExportProvider,
      type: 'issue_exports',
      token: randomBytes(16).toString('hex'),
      filters: { multiple: input.multiple === true },
    });
    this.schedule(row.id);
    return { message: 'Once the export is ready you will be able to download it' };
  }

  /**
   * The workspace's exports `userId` may read, newest first (Plane's `ExporterHistorySerializer`),
   * `url` absolute on `API_BASE_URL` (never the request's `Host`). Readable: the caller's own, and those whose every project the caller
   * may read in full (an active member, above Guest or with `guest_view_all_features`); Plane lists
   * them all (docs/decisions.md, "Exports").
   */
  async list(
    workspaceId: string,
    userId: string,
    slug: string,
    page: PageRequest,
  ): Promise<Page<ReturnType<typeof exportJson>>> {
    const origin = this.config.apiBaseUrl;
    return (await this.repo.page(workspaceId, userId, page)).map((e) => exportJson(e, slug, origin));
  }

  /**
   * The file of a completed export: `{redirect}` to a short-lived signed URL (S3) or `{data}` (local
   * disk). 404 `NOT_FOUND` when the export is not the workspace's, `userId` may not read it (see
   * `list`), it is not completed or its file is gone.
   */
  async download(
    workspaceId: string,
    userId: string,
    id: string,
  ): Promise<{ name: string; redirect?: string; data?: Buffer }> {
    const e = await this.repo.find(workspaceId, id, userId);
    if (!e) throw new MeridianError('NOT_FOUND');
    if (e.status !== 'completed' || !e.key) throw new MeridianError('NOT_FOUND', 'The export is not completed.');
    const name = path.basename(e.key);
    if (this.storage.kind === 's3') {
      const redirect = await this.storage.downloadUrl(
        { id: e.id, key: e.key, contentType: 'application/zip', size: 0, name },
        300,
        '',
      );
      return { name, redirect };
    }
    const data = await this.storage.get(e.key);
    if (!data) throw new MeridianError('NOT_FOUND', 'The export file is gone.');
    return { name, data };
  }

  /** Runs the export after the ones already queued in this process. */
  private schedule(id: string): void {
    this.chain = this.chain.then(() => (this.stopped ? undefined : this.run(id)));
  }

  private async run(id: string): Promise<void> {
    let dir: string | undefined;
    try {
      const e = await this.repo.claim(id, LEASE_MS);
      if (!e) return;
      dir = await fs.mkdtemp(path.join(os.tmpdir(), 'meridian-export-'));
      const files = await this.write(e, dir);
      const zip = path.join(dir, 'export.zip');
      await zipFiles(files, zip);
      const slug = await this.slugOf(e);
      const key = `${e.workspaceId}/export-${slug}-${e.token.slice(0, 6)}-${new Date().toISOString().slice(0, 10)}.zip`;
      await this.storage.putFile(key, zip, 'application/zip');
      await this.repo.finish(id, 'completed', { key, url: downloadPath(slug, e.id) });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.logger.warn({ exportId: id, reason }, 'Export failed');
      await this.repo.finish(id, 'failed', { reason: reason.slice(0, 1000) }).catch(() => undefined);
    } finally {
      if (dir) await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /** Writes the export's files into `dir`, batch by batch; the paths written. */
  private async write(e: ExporterHistory, dir: string): Promise<string[]> {
    const projects = e.project ?? [];
    const multiple = e.filters?.multiple === true;
    const files: string[] = [];
    let writer = multiple ? undefined : exportWriter(e.provider, dir, e.workspaceId);
    for (const projectId of projects) {
      if (multiple) writer = exportWriter(e.provider, dir, projectId);
      let after = 0;
      for (;;) {
        const rows = await this.repo.batch(projectId, e.initiatedById, after);
        if (rows.length) await writer!.write(rows);
        await this.repo.touch(e.id);
        if (rows.length < EXPORT_BATCH) break;
        after = rows[rows.length - 1].sequence_id;
      }
      if (multiple) {
        await writer!.close();
        files.push(writer!.file);
      }
    }
    if (!multiple) {
      await writer!.close();
      files.push(writer!.file);
    }
    return files;
  }

  private async slugOf(e: ExporterHistory): Promise<string> {
    return (await this.repo.workspaceSlug(e.workspaceId)) ?? e.workspaceId;
  }
}

/** Plane's `ExporterHistorySerializer`; `url` is the members-only download route on `origin` once completed. */
export function exportJson(e: ExporterHistory, slug: string, origin: string) {
  return {
    id: e.id,
    created_at: e.createdAt,
    updated_at: e.updatedAt,
    project: e.project ?? [],
    provider: e.provider,
    status: e.status,
    url: e.status === 'completed' && e.url ? `${origin}${downloadPath(slug, e.id)}` : null,
    initiated_by: e.initiatedById,
    initiated_by_detail: e.initiatedBy ? userLiteView(e.initiatedBy) : null,
    token: e.token,
    created_by: e.createdById,
    updated_by: e.updatedById,
  };
}
