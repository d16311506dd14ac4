// The handler classes cycles and modules share (planning-routes.ts): routes, roles and body types
// from the spec, and the query readers; no database.
import 'reflect-metadata';
import { APP_PAGED_BY_NUMBER, PROJECT_ROLE, ROLE, V1_PAGING } from '#common';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AppPlanningRoutes,
  cycleViewOf,
  newestFirst,
  PlanningRoutesService,
  V1PlanningRoutes,
} from './planning-routes';

class CreateThing {}
class UpdateThing {}

const base = {
  rows: 'modules',
  id: 'module_id',
  createDto: CreateThing,
  updateDto: UpdateThing,
} as const;

/** A service that records the `desc` its work item list is asked for. */
function recordingService(calls: unknown[]): PlanningRoutesService<{ id: string }, CreateThing, UpdateThing> {
  const none = () => Promise.reject(new Error('not called'));
  return {
    create: none,
    retrieve: none,
    retrieveArchived: none,
    update: none,
    remove: none,
    listIssues: (_p, _i, _page, _shape, desc) => {
      calls.push(desc);
      return none();
    },
    addIssues: none,
    retrieveIssueLink: none,
    removeIssue: none,
    archive: none,
    unarchive: none,
  };
}

class AppThings extends AppPlanningRoutes<{ id: string }, CreateThing, UpdateThing>({
  ...base,
  workItems: 'issues',
  workItemsPaging: APP_PAGED_BY_NUMBER,
  orderBy: false,
  readRole: ROLE.MEMBER,
}) {
  constructor(protected readonly service: PlanningRoutesService<{ id: string }, CreateThing, UpdateThing>) {
    super();
  }
  protected present(rows: { id: string }[]) {
    return Promise.resolve(rows);
  }
}

class V1Things extends V1PlanningRoutes<{ id: string }, CreateThing, UpdateThing>({
  ...base,
  workItems: 'module-issues',
  workItemsPaging: V1_PAGING,
  orderBy: true,
}) {
  constructor(protected readonly service: PlanningRoutesService<{ id: string }, CreateThing, UpdateThing>) {
    super();
  }
}

const paramTypes = (cls: { prototype: object }, method: string) =>
  Reflect.getMetadata('design:paramtypes', cls.prototype, method) as unknown[];
const handler = (cls: { prototype: object }, method: string) =>
  (cls.prototype as Record<string, (...args: unknown[]) => unknown>)[method];

describe('planning routes', () => {
  it('declares the spec body DTOs as the create and update parameter types (validation and OpenAPI read them)', () => {
    assert.equal(paramTypes(AppThings, 'create')[3], CreateThing);
    assert.equal(paramTypes(AppThings, 'update')[4], UpdateThing);
    assert.equal(paramTypes(AppThings, 'putUpdate')[4], UpdateThing);
    assert.equal(paramTypes(V1Things, 'create')[3], CreateThing);
  });

  it('routes under the spec paths, per API', () => {
    assert.equal(Reflect.getMetadata(PATH_METADATA, handler(AppThings, 'listIssues')), 'modules/:module_id/issues');
    assert.equal(
      Reflect.getMetadata(PATH_METADATA, handler(V1Things, 'retrieveIssue')),
      'modules/:module_id/module-issues/:issue_id',
    );
    assert.equal(
      Reflect.getMetadata(PATH_METADATA, handler(AppThings, 'retrieveArchived')),
      'archived-modules/:module_id',
    );
    assert.equal(
      Reflect.getMetadata(PATH_METADATA, handler(V1Things, 'unarchiveNew')),
      'archived-modules/:module_id/unarchive',
    );
    assert.equal(handler(AppThings, 'unarchiveNew'), undefined);
    assert.equal(handler(V1Things, 'putUpdate'), undefined);
  });

  it('puts the read role on the reads the spec names, and none where it names none', () => {
    for (const method of ['retrieve', 'listIssues', 'retrieveIssue']) {
      assert.equal(Reflect.getMetadata(PROJECT_ROLE, handler(AppThings, method)), ROLE.MEMBER, method);
      assert.equal(Reflect.getMetadata(PROJECT_ROLE, handler(V1Things, method)), undefined, method);
    }
    assert.equal(Reflect.getMetadata(PROJECT_ROLE, handler(AppThings, 'retrieveArchived')), undefined);
    assert.equal(Reflect.getMetadata(PROJECT_ROLE, handler(AppThings, 'remove')), undefined);
  });

  it('reads order_by for the work item list only where the spec says (v1)', async () => {
    const calls: unknown[] = [];
    const project = { projectId: 'p' };
    await assert.rejects(() =>
      new V1Things(recordingService(calls)).listIssues({} as never, project as never, 'm', {} as never, {
        order_by: '-created_at',
      }),
    );
    await assert.rejects(() =>
      new AppThings(recordingService(calls)).listIssues({} as never, project as never, 'm', {} as never, {}),
    );
    assert.deepEqual(calls, [true, false]);
    assert.throws(
      () =>
        new V1Things(recordingService(calls)).listIssues({} as never, project as never, 'm', {} as never, {
          order_by: 'name',
        }),
      (e: { code?: string }) => e.code === 'INVALID_QUERY_PARAMETER',
    );
    // the shared App routes ignore order_by (the App controllers answer with their own list: `workItems`)
    await assert.rejects(() =>
      new AppThings(recordingService(calls)).listIssues({} as never, project as never, 'm', {} as never, {
        order_by: 'name',
      }),
    );
    assert.deepEqual(calls, [true, false, false]);
  });

  it('reads order_by and cycle_view', () => {
    assert.equal(newestFirst({}), false);
    assert.equal(newestFirst({ order_by: 'created_at' }), false);
    assert.equal(newestFirst({ order_by: '-created_at' }), true);
    assert.equal(cycleViewOf({}), 'all');
    assert.equal(cycleViewOf({ cycle_view: 'Current' }), 'current');
    assert.throws(
      () => cycleViewOf({ cycle_view: 'soon' }),
      (e: { code?: string; status?: number }) => {
        return e.code === 'INVALID_QUERY_PARAMETER' && e.status === 400;
      },
    );
  });
});
