import { APP_CONFIG, AppConfig, AuditActor, isUuid, MeridianError, Page, PageRequest } from '#common';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { OBJECT_STORAGE } from '../attachment';
import type { ObjectStorage } from '../attachment';
import { auditActorById, recordAudit } from '../kernel/audit';
import { JobRunner } from '../kernel/jobs/job-runner';
import { ProjectService } from '../project';
import { userLiteView } from '../user';
import { WorkspaceService } from '../workspace';
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
const downloadPath = (slug: string, id: string) => `/api/workspaces/${slug}/export-issues/${id}/download/`;

/**
 * Work item exports (Plane 0.25.3 `app/views/exporter/base.py`, `bgtasks/export_task.py`): an
 * export is recorded `queued`, then written in the background by this process (one export at a
 * time, oldest first, as the worker `exports` of the job runner): `processing`, the work items read `EXPORT_BATCH` at a time into one
 * file per project (`multiple`) or one for all, in CSV, JSON or XLSX, zipped and stored where the
 * assets are (local disk or S3), then `completed` with the members-only download link as `url`,
 * or `failed` with `reason`. Any process's runner takes the next export (`claimNext`); one left
 * `processing` without a sign of life for `EXPORT_LEASE_MS` (its process died or stopped mid-export;
 * the writer renews its lease after each batch) is taken over by the next round of any runner
 * (every `JOBS_POLL_INTERVAL_MS`) (docs/decisions.md, "Analytics, exports and the home graphs",
 * "One job runner").
 */
@Injectable()
export class ExporterService implements OnModuleInit {
  private readonly logger = new Logger('Exporter');

  constructor(
    private readonly repo: ExporterRepository,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly runner: JobRunner,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly projects: ProjectService,
    private readonly workspaces: WorkspaceService,
  ) {}

  /** The worker `exports` on the job runner: one export per round, the next at once. */
  onModuleInit(): void {
    this.runner.addWorker({
      name: 'exports',
      intervalMs: this.config.jobs.pollIntervalMs,
      enabled: true,
      poll: (signal) => this.runNext(signal),
    });
  }

  /**
   * Records an export and queues it; 400 `EXPORT_PROVIDER_NOT_FOUND` for a provider other than
   * csv, json or xlsx; 422 for project ids that are not a list of UUIDs
   * (`VALIDATION_ERROR`); 404 `PROJECT_NOT_FOUND` for an id that is not a project of the workspace.
   * Projects the caller is not an active member of (or archived ones) are left out, as Plane's task does.
   */
  async request(
    workspaceId: string,
    userId: string,
    input: ExportRequest,
    actor: AuditActor = auditActorById(userId),
  ): Promise<{ message: string }> {
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
      const known = await this.projects.liveIdsInWorkspace(workspaceId, asked);
      if (asked.some((id) => !known.has(id))) throw new MeridianError('PROJECT_NOT_FOUND');
    }
    const projects = await this.projects.openIdsOfMember(workspaceId, userId, asked);
    await this.dataSource.transaction(async (em) => {
      const created = await this.repo.create(
        {
          workspaceId,
          project: projects,
          initiatedById: userId,
          createdById: userId,
          updatedById: userId,
          provider: provider as ExportProvider,
          type: 'issue_exports',
          token: randomBytes(16).toString('hex'),
          filters: { multiple: input.multiple === true },
        },
        em,
      );
      await recordAudit(em, {
        event: 'export.started',
        actor,
        workspaceId,
        target: { type: 'export', id: created.id },
        metadata: { provider, projects },
      });
    });
    this.runner.kick('exports');
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
    actor: AuditActor = auditActorById(userId),
  ): Promise<{ name: string; redirect?: string; data?: Buffer }> {
    const e = await this.repo.find(workspaceId, id, userId);
    if (!e) throw new MeridianError('NOT_FOUND');
    if (e.status !== 'completed' || !e.key) throw new MeridianError('NOT_FOUND', 'The export is not completed.');
    const name = path.basename(e.key);
    // a download changes nothing: its row has a short transaction of its own
    await this.dataSource.transaction((em) =>
      recordAudit(em, {
        event: 'export.downloaded',
        actor,
        workspaceId,
        target: { type: 'export', id: e.id },
        metadata: { provider: e.provider },
      }),
    );
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

  /**
   * Claims the next export (any process's) and writes it; 1 when there was one, else 0. Cut off
   * by a shutdown (`signal`), the export stays `processing` and is taken over when its lease ends.
   */
  async runNext(signal: AbortSignal): Promise<number> {
    const e = await this.repo.claimNext(this.config.jobs.exportLeaseMs);
    if (!e) return 0;
    let dir: string | undefined;
    try {
      dir = await fs.mkdtemp(path.join(os.tmpdir(), 'meridian-export-'));
      const files = await this.write(e, dir, signal);
      const zip = path.join(dir, 'export.zip');
      await zipFiles(files, zip);
      const slug = await this.slugOf(e);
      const key = `${e.workspaceId}/export-${slug}-${e.token.slice(0, 6)}-${new Date().toISOString().slice(0, 10)}.zip`;
      await this.storage.putFile(key, zip, 'application/zip');
      await this.repo.finish(e.id, 'completed', { key, url: downloadPath(slug, e.id) });
    } catch (err) {
      if (signal.aborted) return 1;
      const reason = err instanceof Error ? err.message : String(err);
      this.logger.warn({ exportId: e.id, reason }, 'Export failed');
      await this.repo.finish(e.id, 'failed', { reason: reason.slice(0, 1000) }).catch(() => undefined);
    } finally {
      if (dir) await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
    return 1;
  }

  /**
   * `delete-expired-exports`: removes the stored file of every export older than
   * `EXPORT_EXPIRY_DAYS` days that still has one, and its link (`url` null, as Plane's
   * `delete_old_s3_link`, whose cut-off is 8 days), `JOBS_BATCH_SIZE` exports at a time. The rows
   * stay in the history. Reports `{expired}`.
   */
  async deleteExpiredFiles(signal: AbortSignal, batchSize: number): Promise<{ expired: number }> {
    const before = new Date(Date.now() - this.config.jobs.exportExpiryDays * 86_400_000);
    let expired = 0;
    for (;;) {
      const rows = await this.repo.expiredFiles(before, batchSize);
      for (const r of rows) if (r.key) await this.storage.delete(r.key);
      if (rows.length) await this.repo.clearFiles(rows.map((r) => r.id));
      expired += rows.length;
      if (rows.length < batchSize || signal.aborted) return { expired };
    }
  }

  /** Writes the export's files into `dir`, batch by batch; the paths written. */
  private async write(e: ExporterHistory, dir: string, signal: AbortSignal): Promise<string[]> {
    const projects = e.project ?? [];
    const multiple = e.filters?.multiple === true;
    const files: string[] = [];
    let writer = multiple ? undefined : exportWriter(e.provider, dir, e.workspaceId);
    for (const projectId of projects) {
      if (multiple) writer = exportWriter(e.provider, dir, projectId);
      let after = 0;
      for (;;) {
        signal.throwIfAborted();
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
    return (await this.workspaces.workspacesWithDeleted([e.workspaceId]))[0]?.slug ?? e.workspaceId;
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
