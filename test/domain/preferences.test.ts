import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  CycleService,
  defaultDisplayFilters,
  IssueCommandService,
  PreferenceService,
  QuickLinkService,
  RecentVisitService,
  WorkspaceThemeService,
} from '#domain';
import type { DomainContext } from '../support/domain-context';
import { domainSuite, rejectsWith, Seeded } from '../support/domain-fixtures';

describe('domain: a user’s own settings (PreferenceService, QuickLinkService, RecentVisitService, WorkspaceThemeService)', () => {
  let d: DomainContext;
  let prefs: PreferenceService;
  let links: QuickLinkService;
  let p: Seeded;
  let other: Seeded;
  domainSuite({ projects: 2 }, (s) => {
    ({ d, p, other } = s);
    prefs = d.get(PreferenceService);
    links = d.get(QuickLinkService);
  });

  it('home widgets and sidebar entries are made once with Plane’s defaults; an unknown key is NOT_FOUND', async () => {
    const home = await prefs.homePreferences(p.workspaceId, p.userId);
    assert.deepEqual(
      home.map((h) => [h.key, h.sort_order]),
      [
        ['quick_links', 999],
        ['recents', 998],
        ['my_stickies', 997],
      ],
    );
    await prefs.homePreferences(p.workspaceId, p.userId);
    const rows = await d.sql('SELECT 1 FROM workspace_home_preferences WHERE workspace_id = $1 AND user_id = $2', [
      p.workspaceId,
      p.userId,
    ]);
    assert.equal(rows.length, 3, 'a second read adds nothing');
    const off = await prefs.updateHomePreference(p.workspaceId, p.userId, 'recents', { is_enabled: false });
    assert.deepEqual(off, { key: 'recents', is_enabled: false, sort_order: 998 });
    await rejectsWith(
      prefs.updateHomePreference(p.workspaceId, p.userId, 'weather', { is_enabled: false }),
      'NOT_FOUND',
    );
    const sidebar = await prefs.sidebarPreferences(p.workspaceId, p.userId);
    assert.deepEqual(Object.keys(sidebar), ['views', 'active_cycles', 'analytics', 'drafts', 'your_work', 'archives']);
    await prefs.updateSidebarPreference(p.workspaceId, p.userId, 'drafts', { is_pinned: true });
    assert.equal((await prefs.sidebarPreferences(p.workspaceId, p.userId)).drafts.is_pinned, true);
    assert.equal(
      (await prefs.sidebarPreferences(other.workspaceId, other.userId)).drafts.is_pinned,
      false,
      'another user’s entries are their own',
    );
    await rejectsWith(
      prefs.updateSidebarPreference(p.workspaceId, p.userId, 'inbox', { is_pinned: true }),
      'NOT_FOUND',
    );
  });

  it('display settings start at the defaults, a PATCH replaces the given objects whole; a cycle of another project is NOT_FOUND', async () => {
    const scope = { kind: 'project' as const, workspaceId: p.workspaceId, projectId: p.projectId };
    const first = await prefs.displayProperties(scope, p.userId);
    assert.deepEqual(first.display_filters, defaultDisplayFilters());
    const changed = await prefs.updateDisplayProperties(scope, p.userId, { display_filters: { layout: 'kanban' } });
    assert.deepEqual(changed.display_filters, { layout: 'kanban' });
    assert.deepEqual(changed.display_properties, first.display_properties);
    const theirCycle = await d.get(CycleService).create(other.ctx, { name: 'Theirs' });
    await rejectsWith(
      prefs.displayProperties({ ...scope, kind: 'cycle', cycleId: theirCycle.id }, p.userId),
      'NOT_FOUND',
    );
    await rejectsWith(
      prefs.displayProperties({ ...scope, kind: 'module', moduleId: randomUUID() }, p.userId),
      'NOT_FOUND',
    );
    const mine = await d.get(CycleService).create(p.ctx, { name: 'Mine' });
    const cycleScope = { ...scope, kind: 'cycle' as const, cycleId: mine.id };
    await prefs.updateDisplayProperties(cycleScope, p.userId, { filters: { priority: ['high'] } });
    assert.deepEqual((await prefs.displayProperties(cycleScope, p.userId)).filters, { priority: ['high'] });
    assert.deepEqual(
      (await prefs.displayProperties(scope, p.userId)).display_filters,
      { layout: 'kanban' },
      'the cycle’s settings are apart from the project’s',
    );
  });

  it('quick links: a URL is normalised and checked, one per owner and URL, private to the owner', async () => {
    const missing = await rejectsWith(links.create(p.workspaceId, p.userId, { title: 'x' }), 'VALIDATION_ERROR');
    assert.deepEqual(missing.extra.errors, { url: ['This field is required.'] });
    await rejectsWith(links.create(p.workspaceId, p.userId, { url: 'not a url' }), 'VALIDATION_ERROR');
    await rejectsWith(links.create(p.workspaceId, p.userId, { url: 'ftp://example.com' }), 'VALIDATION_ERROR');
    await rejectsWith(links.create(p.workspaceId, p.userId, { url: 'nohost' }), 'VALIDATION_ERROR');
    const link = await links.create(p.workspaceId, p.userId, { url: ' example.com/docs ', title: 'Docs' });
    assert.equal(link.url, 'http://example.com/docs');
    await rejectsWith(links.create(p.workspaceId, p.userId, { url: 'http://example.com/docs' }), 'QUICK_LINK_EXISTS');
    const second = await links.create(p.workspaceId, p.userId, { url: 'https://127.0.0.1:8080/x' });
    await rejectsWith(
      links.update(p.workspaceId, p.userId, second.id, { url: 'example.com/docs' }),
      'QUICK_LINK_EXISTS',
    );
    // the same URL is free for someone else
    await links.create(other.workspaceId, other.userId, { url: 'example.com/docs' });
    await rejectsWith(links.retrieve(other.workspaceId, other.userId, link.id), 'NOT_FOUND');
    await rejectsWith(links.retrieve(p.workspaceId, other.userId, link.id), 'NOT_FOUND');
    await rejectsWith(links.remove(p.workspaceId, other.userId, link.id), 'NOT_FOUND');
    assert.deepEqual(
      (await links.list(p.workspaceId, p.userId)).map((l) => l.id),
      [second.id, link.id],
    );
    await links.remove(p.workspaceId, p.userId, link.id);
    assert.deepEqual(
      (await links.list(p.workspaceId, p.userId)).map((l) => l.id),
      [second.id],
    );
    // a deleted link's URL can be added again
    await links.create(p.workspaceId, p.userId, { url: 'example.com/docs' });
  });

  it('recent visits: one row per entity, newest first, kind filter; a deleted work item and a project left behind drop out', async () => {
    const visits = d.get(RecentVisitService);
    const a = (await d.get(IssueCommandService).create(p.ctx, { name: 'Visited A' })).id as string;
    const b = (await d.get(IssueCommandService).create(p.ctx, { name: 'Visited B' })).id as string;
    await visits.record(p.workspaceId, p.userId, 'issue', a, p.projectId);
    await visits.record(p.workspaceId, p.userId, 'project', p.projectId, p.projectId);
    await visits.record(p.workspaceId, p.userId, 'issue', b, p.projectId);
    await visits.record(p.workspaceId, p.userId, 'issue', a, p.projectId);
    const list = await visits.list(p.workspaceId, p.userId);
    assert.deepEqual(
      list.map((v) => v.entity_identifier),
      [a, b, p.projectId],
    );
    assert.deepEqual(
      (await visits.list(p.workspaceId, p.userId, 'project')).map((v) => v.entity_identifier),
      [p.projectId],
    );
    await d.get(IssueCommandService).remove(p.ctx, a);
    assert.deepEqual(
      (await visits.list(p.workspaceId, p.userId)).map((v) => v.entity_identifier),
      [b, p.projectId],
    );
    assert.deepEqual(await visits.list(p.workspaceId, other.userId), []);
    // a visit that cannot be recorded (an unknown project) is swallowed, as Plane's background task
    await visits.record(p.workspaceId, p.userId, 'issue', randomUUID(), randomUUID());
  });

  it('themes: a name is unique among the workspace’s live themes; another workspace’s theme is NOT_FOUND', async () => {
    const themes = d.get(WorkspaceThemeService);
    const dark = await themes.create(p.workspaceId, p.userId, { name: 'Dark', colors: { bg: '#000' } });
    assert.equal(dark.actor, p.userId);
    await rejectsWith(themes.create(p.workspaceId, p.userId, { name: 'Dark' }), 'THEME_NAME_TAKEN');
    const light = await themes.create(p.workspaceId, p.userId, { name: 'Light' });
    await rejectsWith(themes.update(p.workspaceId, p.userId, light.id, { name: 'Dark' }), 'THEME_NAME_TAKEN');
    await themes.create(other.workspaceId, other.userId, { name: 'Dark' });
    await rejectsWith(themes.get(other.workspaceId, dark.id), 'NOT_FOUND');
    await rejectsWith(themes.remove(other.workspaceId, dark.id), 'NOT_FOUND');
    await themes.remove(p.workspaceId, dark.id);
    await themes.create(p.workspaceId, p.userId, { name: 'Dark' });
    assert.deepEqual((await themes.list(p.workspaceId)).map((t) => t.name).sort(), ['Dark', 'Light']);
  });
});
