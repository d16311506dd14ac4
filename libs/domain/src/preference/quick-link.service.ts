import { isIP } from 'node:net';
import { MeridianError, validationError } from '#common';
import { Injectable } from '@nestjs/common';
import { found } from '../kernel/db-errors';
import { PreferenceRepository } from './preference.repository';
import { QuickLinkJson, quickLinkView } from './preference.view';
import { WorkspaceUserLink } from './workspace-user-link.entity';

export interface QuickLinkInput {
  title?: string | null;
  url?: string;
  metadata?: Record<string, unknown>;
}

/**
 * Plane's `WorkspaceUserLinkSerializer` URL rules: `http://` is put in front of a URL without
 * `http://` or `https://`, then it must be an http(s) URL with a host name (a domain with a
 * top-level part, `localhost`, or an IP address). Anything else is a 422 on `url`.
 */
export function normaliseQuickLinkUrl(raw: string): string {
  const value = raw.trim();
  const url = /^https?:\/\//i.test(value) ? value : `http://${value}`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw validationError({ url: ['Invalid URL format.'] });
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const domain = /^([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]*[a-z0-9]\.?$/i.test(host);
  if (!(domain || host === 'localhost' || isIP(host) !== 0) || /\s/.test(value)) {
    throw validationError({ url: ['Invalid URL format.'] });
  }
  return url;
}

/**
 * The caller's quick links on a workspace home page (Plane 0.25.3
 * `plane/app/views/workspace/quick_link.py` QuickLinkViewSet): private to the owner, any workspace
 * role; someone else's link is a 404. One link per owner and URL (409 `QUICK_LINK_EXISTS`).
 */
@Injectable()
export class QuickLinkService {
  constructor(private readonly repo: PreferenceRepository) {}

  /** Newest first, all of them (Plane returns a plain list). */
  async list(workspaceId: string, ownerId: string): Promise<QuickLinkJson[]> {
    return (await this.repo.quickLinks(workspaceId, ownerId)).map(quickLinkView);
  }

  async retrieve(workspaceId: string, ownerId: string, id: string): Promise<QuickLinkJson> {
    return quickLinkView(await this.link(workspaceId, ownerId, id));
  }

  /** 201; `url` required. */
  async create(workspaceId: string, ownerId: string, input: QuickLinkInput): Promise<QuickLinkJson> {
    if (input.url === undefined) throw validationError({ url: ['This field is required.'] });
    const url = normaliseQuickLinkUrl(input.url);
    if (await this.repo.quickLinkUrlTaken(workspaceId, ownerId, url)) throw new MeridianError('QUICK_LINK_EXISTS');
    const saved = await this.repo.save(WorkspaceUserLink, {
      workspaceId,
      ownerId,
      title: input.title ?? null,
      url,
      metadata: input.metadata ?? {},
      createdById: ownerId,
      updatedById: ownerId,
    });
    return this.retrieve(workspaceId, ownerId, saved.id);
  }

  async update(workspaceId: string, ownerId: string, id: string, input: QuickLinkInput): Promise<QuickLinkJson> {
    const link = await this.link(workspaceId, ownerId, id);
    const patch: Partial<WorkspaceUserLink> = { updatedById: ownerId };
    if (input.title !== undefined) patch.title = input.title;
    if (input.metadata !== undefined) patch.metadata = input.metadata;
    if (input.url !== undefined) {
      patch.url = normaliseQuickLinkUrl(input.url);
      if (await this.repo.quickLinkUrlTaken(workspaceId, ownerId, patch.url, link.id))
        throw new MeridianError('QUICK_LINK_EXISTS');
    }
    await this.repo.update(WorkspaceUserLink, link.id, patch);
    return this.retrieve(workspaceId, ownerId, id);
  }

  /** 204; soft delete. */
  async remove(workspaceId: string, ownerId: string, id: string): Promise<void> {
    const link = await this.link(workspaceId, ownerId, id);
    await this.repo.update(WorkspaceUserLink, link.id, { deletedAt: new Date(), updatedById: ownerId });
  }

  private link(workspaceId: string, ownerId: string, id: string): Promise<WorkspaceUserLink> {
    return found(this.repo.findOne(WorkspaceUserLink, { id, workspaceId, ownerId }));
  }
}
