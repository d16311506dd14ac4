import { Injectable, OnModuleInit, SetMetadata } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { AuditEntry } from './audit';
import type { ActivityEntry, ChangeContext } from './change-context';

/**
 * A work item about to be created, as the create path knows it before any lock (`issue.create.*`
 * events). Listeners read it and add what they need: `subscribers` are written with the work item,
 * `needsTransaction` says a listener writes something in the create's transaction (then the create
 * cannot join the project's group commit), `scratch` keeps a listener's own state until `issue.created`.
 */
export interface IssueCreateDraft {
  ctx: ChangeContext;
  /** assignee ids kept (project members with role ≥ 15) */
  assigned: string[];
  descriptionHtml: string;
  /** the work item's state (`name`, `group`), null without one */
  state: { name: string; group: string } | null;
  /** the users subscribed to the new work item: the creator and the assignees unless a listener narrows it */
  subscribers: string[];
  needsTransaction: boolean;
  scratch: Map<string, unknown>;
}

/** The fields of a just-created work item that listeners read. */
export interface CreatedIssue {
  id: string;
  projectId: string;
  name: string;
  sequenceId: number;
}

/** A project, cycle or module row, as its service loaded it. */
export interface ChangedModel {
  id: string;
  workspaceId: string;
}

/**
 * The domain's change events and their payloads. Each is emitted inside the writer's transaction
 * (the `EntityManager` given to `emitChange`), except `issue.create.prepare`, which comes before it.
 */
export interface ChangeEvents {
  /** history rows were written (`writeActivities`); `activityIds[n]` is the row of `entries[n]` */
  'issue.activities': { ctx: ChangeContext; entries: ActivityEntry[]; activityIds: Array<string | null> };
  /** a create's reads and checks, before its transaction or lock (in the caller's transaction for intake) */
  'issue.create.prepare': IssueCreateDraft;
  /** in the create's transaction, before the project's counter row is locked */
  'issue.create.locking': IssueCreateDraft;
  /** the work item and its "created the issue" history row (`activityId`) were inserted */
  'issue.created': { draft: IssueCreateDraft; issue: CreatedIssue; entry: ActivityEntry; activityId: string | null };
  /**
   * A project, cycle or module was created, updated or deleted by `actorId`. For `updated`, `row`
   * is the object as loaded before the change (emit before modifying it).
   */
  'model.changed': {
    kind: 'project' | 'cycle' | 'module';
    action: 'created' | 'updated' | 'deleted';
    row: ChangedModel;
    actorId: string;
  };
  /** an intake flow runs in this transaction: its work item history is intake history */
  'intake.changing': { workspaceId: string };
  /** an intake item was deleted (its work item's history is written separately) */
  'intake.deleted': { workspaceId: string; intakeIssueId: string; actorId: string };
  /** estimate points were deleted: work items that used them lose their point (`value` for history) */
  'estimate.points-removed': { ctx: ChangeContext; points: Array<{ id: string; value: string }> };
  /** a security-relevant event to record in the audit log, in the writer's transaction (`recordAudit`) */
  'audit.recorded': AuditEntry;
}

export type ChangeEventName = keyof ChangeEvents;
type Listener = (em: EntityManager, payload: never) => unknown;

const ON_CHANGE = Symbol('meridian:on-change');

/**
 * Declares a provider method as a listener of a change event: `@OnChange('issue.activities')
 * async onActivities(em, payload) {…}`. It runs inside the writer's transaction with its
 * `EntityManager`, after the listeners declared before it; its error rolls the change back.
 */
export const OnChange = (event: ChangeEventName) => SetMetadata(ON_CHANGE, event);

const busOf = new WeakMap<DataSource, ChangeBus>();

/**
 * Runs the listeners of `event`, one after the other, with the writer's `em` (which carries the
 * transaction). A change made through a data source without the domain module has no listeners.
 */
export async function emitChange<E extends ChangeEventName>(
  em: EntityManager,
  event: E,
  payload: ChangeEvents[E],
): Promise<void> {
  const bus = busOf.get(em.connection);
  if (bus) await bus.emit(em, event, payload);
}

/**
 * The in-transaction listener registry of one application (one per data source, so that several
 * applications in one process stay apart). Listeners are the `@OnChange` methods of the
 * application's providers, found once at start-up; features emit through `emitChange`, so a
 * feature never calls the features that react to it (webhooks, notifications, history).
 */
@Injectable()
export class ChangeBus implements OnModuleInit {
  private readonly listeners = new Map<ChangeEventName, Listener[]>();

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {
    busOf.set(dataSource, this);
  }

  onModuleInit(): void {
    this.listeners.clear();
    const seen = new Set<object>();
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      // an alias (`useExisting`) is the same instance under another token: once is enough
      if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic() || seen.has(instance))
        continue;
      seen.add(instance);
      const proto = Object.getPrototypeOf(instance) as object;
      for (const name of this.scanner.getAllMethodNames(proto)) {
        const method = instance[name] as (...args: unknown[]) => unknown;
        const event = Reflect.getMetadata(ON_CHANGE, method) as ChangeEventName | undefined;
        if (!event) continue;
        const list = this.listeners.get(event) ?? [];
        list.push(method.bind(instance) as Listener);
        this.listeners.set(event, list);
      }
    }
  }

  /** See `emitChange`. */
  async emit<E extends ChangeEventName>(em: EntityManager, event: E, payload: ChangeEvents[E]): Promise<void> {
    for (const listener of this.listeners.get(event) ?? [])
      await (listener as (em: EntityManager, p: ChangeEvents[E]) => unknown)(em, payload);
  }
}
