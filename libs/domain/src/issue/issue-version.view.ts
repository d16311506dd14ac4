import { iso } from '../kernel/time';
import type { IssueDescriptionVersion } from './issue-description-version.entity';

/** The list values of a version (Plane `IssueDescriptionVersionEndpoint` / `IssueVersionEndpoint` `required_fields`). */
export function versionListView(v: IssueDescriptionVersion) {
  return {
    id: v.id,
    workspace: v.workspaceId,
    project: v.projectId,
    issue: v.issueId,
    last_saved_at: iso(v.lastSavedAt),
    owned_by: v.ownedById,
    created_at: iso(v.createdAt),
    updated_at: iso(v.updatedAt),
    created_by: v.createdById,
    updated_by: v.updatedById,
  };
}

/** Plane's `IssueDescriptionVersionDetailSerializer`; `description_binary` is not kept (null). */
export function descriptionVersionView(v: IssueDescriptionVersion) {
  return {
    id: v.id,
    workspace: v.workspaceId,
    project: v.projectId,
    issue: v.issueId,
    description_binary: null,
    description_html: v.descriptionHtml,
    description_stripped: v.descriptionStripped,
    description_json: v.descriptionJson,
    last_saved_at: iso(v.lastSavedAt),
    owned_by: v.ownedById,
    created_at: iso(v.createdAt),
    updated_at: iso(v.updatedAt),
    created_by: v.createdById,
    updated_by: v.updatedById,
  };
}

/** A page of Plane's `plane/utils/global_paginator.py` `paginate`: cursors `<page size>:<page>:0`. */
export function globalPage<T>(results: T[], total: number, pageSize: number, page: number) {
  const next = (page + 1) * pageSize < total;
  return {
    prev_cursor: `${pageSize}:${page - 1}:0`,
    cursor: `${pageSize}:${page}:0`,
    next_cursor: next ? `${pageSize}:${page + 1}:0` : null,
    prev_page_results: page > 0,
    next_page_results: next,
    page_count: results.length,
    total_results: total,
    total_pages: Math.ceil(total / pageSize),
    results,
  };
}
