import { APP_CONFIG, AppConfig } from '#common';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  DataSource,
  EntityManager,
  EntitySubscriberInterface,
  TransactionCommitEvent,
  TransactionRollbackEvent,
} from 'typeorm';
import { CycleService } from '../cycle';
import { IntakeService } from '../intake';
import { IssueChildrenService, IssueQueryService } from '../issue';
import { ModuleService } from '../module';
import { ProjectService } from '../project';
import { UserProfileService } from '../user';
import { DERIVED_KEYS, renderActors, renderWebhookData, WebhookReads } from './webhook-renderer';
import { ChangeEvents, IssueCreateDraft, OnChange } from '../kernel/change-bus';
import {
  dropWebhookEvents,
  enqueueWebhookEvent,
  markWebhookIntake,
  PendingWebhookEvent,
  prepareWebhookSubscriptions,
  queueIssueActivityEvents,
  takeWebhookEvents,
  WebhookOutboxPort,
  WebhookSubscription,
} from './webhook-events';
import { modelEvent } from './webhook-enqueue';
import { WebhookEvent, WebhookSwitch } from './webhook.entity';
import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookRepository } from './webhook.repository';

/** Which switch an event needs: Plane's, and `issue` for `intake_issue` (Plane sends those to every webhook). */
const SWITCH_OF: Record<WebhookEvent, WebhookSwitch> = {
  project: 'project',
  issue: 'issue',
  module: 'module',
  cycle: 'cycle',
  issue_comment: 'issue_comment',
  intake_issue: 'issue',
};

const depthOf = (qr: unknown): number => (qr as { transactionDepth?: number }).transactionDepth ?? 1;

/** At most this many workspaces' webhook subscriptions are cached (a write in each one reads them). */
const MAX_CACHED_WORKSPACES = 1_000;

/**
 * The transactional outbox. Services queue events in their transaction (`enqueueWebhookEvent`,
 * `queueIssueActivityEvents` from `writeActivities`); just before the outermost COMMIT, a TypeORM
 * subscriber on the same query runner renders each event (`data` as the v1 representation, as of
 * the commit) for every active webhook of the workspace subscribed to it and inserts the
 * `webhook_deliveries` rows. The change and its deliveries commit together or not at all. Which
 * webhooks a workspace has may be looked up earlier in the transaction
 * (`prepareWebhookSubscriptions`, before a lock is taken); the commit then uses that answer.
 *
 * A write in a workspace without a subscribed webhook costs no query: the subscriptions of a
 * workspace are cached for `WEBHOOK_SUBSCRIPTION_CACHE_MS` (5 s) per process, and webhook writes
 * through this process clear the entry at once (other processes see them within that time).
 */
@Injectable()
export class WebhookOutbox implements EntitySubscriberInterface, WebhookOutboxPort {
  private readonly logger = new Logger('Webhooks');
  private readonly cache = new Map<string, { at: number; subs: WebhookSubscription[] }>();
  /** bumped by `invalidate`, so a read that raced with a webhook change is not cached */
  private generation = 0;
  /** the doors a delivery's `data` and actor are read through */
  private readonly reads: WebhookReads;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repo: WebhookRepository,
    issues: IssueQueryService,
    comments: IssueChildrenService,
    cycles: CycleService,
    modules: ModuleService,
    projects: ProjectService,
    intake: IntakeService,
    users: UserProfileService,
  ) {
    this.reads = { issues, comments, cycles, modules, projects, intake, users };
    if (!dataSource.subscribers.includes(this)) dataSource.subscribers.push(this);
  }

  // ---- the change events it listens to (in the writer's transaction) ----------------------------

  /** One `issue` / `issue_comment` (or `intake_issue`) event per history row. */
  @OnChange('issue.activities')
  onIssueActivities(em: EntityManager, { ctx, entries }: ChangeEvents['issue.activities']): Promise<void> {
    return queueIssueActivityEvents(em, ctx, entries, this);
  }

  /** A create with an `issue` webhook in its workspace writes its event in its own transaction. */
  @OnChange('issue.create.prepare')
  async onIssueCreatePrepare(em: EntityManager, draft: IssueCreateDraft): Promise<void> {
    if ((await this.subscriptions(em, draft.ctx.workspaceId)).some((w) => w.issue)) draft.needsTransaction = true;
  }

  /** The commit uses the webhooks looked up now, not a lookup under the project's counter lock. */
  @OnChange('issue.create.locking')
  async onIssueCreateLocking(em: EntityManager, draft: IssueCreateDraft): Promise<void> {
    await prepareWebhookSubscriptions(em, draft.ctx.workspaceId, this);
  }

  @OnChange('issue.created')
  onIssueCreated(em: EntityManager, { draft, entry }: ChangeEvents['issue.created']): Promise<void> {
    return queueIssueActivityEvents(em, draft.ctx, [entry], this);
  }

  @OnChange('model.changed')
  onModelChanged(em: EntityManager, change: ChangeEvents['model.changed']): Promise<void> {
    return enqueueWebhookEvent(em, modelEvent(change), this);
  }

  @OnChange('intake.changing')
  onIntakeChanging(em: EntityManager): void {
    markWebhookIntake(em);
  }

  @OnChange('intake.deleted')
  onIntakeDeleted(
    em: EntityManager,
    { workspaceId, intakeIssueId, actorId }: ChangeEvents['intake.deleted'],
  ): Promise<void> {
    return enqueueWebhookEvent(
      em,
      { workspaceId, event: 'intake_issue', action: 'deleted', entityId: intakeIssueId, actorId },
      this,
    );
  }

  /** Forget a workspace's cached subscriptions (after a webhook is created, changed, deleted or switched off). */
  invalidate(workspaceId: string): void {
    this.generation++;
    this.cache.delete(workspaceId);
  }

  async beforeTransactionCommit(event: TransactionCommitEvent): Promise<void> {
    if (depthOf(event.queryRunner) !== 1) return;
    const { events, subscriptions } = takeWebhookEvents(event.queryRunner);
    if (events.length) await this.flush(event.queryRunner.manager, events, subscriptions);
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    dropWebhookEvents(event.queryRunner, depthOf(event.queryRunner));
  }

  /**
   * Renders and inserts the deliveries of `events` with `em` (the committing transaction's
   * manager); `known`: the webhooks of some workspaces, looked up earlier in the transaction
   * (`prepareWebhookSubscriptions`), the others are looked up now.
   */
  async flush(
    em: EntityManager,
    events: PendingWebhookEvent[],
    known?: Map<string, WebhookSubscription[]>,
  ): Promise<void> {
    const subsByWorkspace = new Map<string, WebhookSubscription[]>();
    for (const ws of new Set(events.map((e) => e.workspaceId)))
      subsByWorkspace.set(ws, known?.get(ws) ?? (await this.subscriptions(em, ws)));
    const wanted = events.filter((e) => subsByWorkspace.get(e.workspaceId)!.some((s) => s[SWITCH_OF[e.event]]));
    if (!wanted.length) return;

    const data = new Map<string, Record<string, unknown> | null>();
    const dataOf = async (e: PendingWebhookEvent) => {
      const key = `${e.event}:${e.entityId}`;
      if (!data.has(key)) {
        try {
          data.set(key, await renderWebhookData(em, this.reads, e.event, e.entityId, e.actorId));
        } catch (err) {
          // a rendering fault must not undo the change: the receiver still learns what changed
          this.logger.error(`could not render ${key}: ${(err as Error).message}`);
          data.set(key, null);
        }
      }
      return data.get(key) ?? { id: e.entityId };
    };
    const actors = await renderActors(
      em,
      this.reads,
      wanted.map((e) => e.actorId).filter((x): x is string => !!x),
    );
    const rows: Array<Partial<WebhookDelivery>> = [];
    for (const e of wanted) {
      const body = e.action === 'deleted' ? { id: e.entityId } : await dataOf(e);
      const activities = e.before && e.action === 'updated' ? changedFields(e.before, body) : [e.activity ?? null];
      for (const sub of subsByWorkspace.get(e.workspaceId)!.filter((s) => s[SWITCH_OF[e.event]])) {
        for (const a of activities) {
          rows.push({
            workspaceId: e.workspaceId,
            webhookId: sub.id,
            event: e.event,
            action: e.action,
            body: JSON.stringify({
              event: e.event,
              action: e.action,
              webhook_id: sub.id,
              workspace_id: e.workspaceId,
              data: body,
              activity: {
                field: a?.field ?? null,
                new_value: a?.new_value ?? null,
                old_value: a?.old_value ?? null,
                actor: e.actorId ? (actors.get(e.actorId) ?? null) : null,
                old_identifier: a?.old_identifier ?? null,
                new_identifier: a?.new_identifier ?? null,
              },
            }),
          });
        }
      }
    }
    if (rows.length) await this.repo.insertDeliveries(em, rows);
  }

  async subscriptions(em: EntityManager, workspaceId: string): Promise<WebhookSubscription[]> {
    const ttl = this.config.webhooks.subscriptionCacheMs;
    const hit = this.cache.get(workspaceId);
    if (hit && Date.now() - hit.at < ttl) return hit.subs;
    const generation = this.generation;
    const subs = await this.repo.findSubscriptions(em, workspaceId);
    if (ttl > 0 && generation === this.generation) {
      // bounded: past MAX_CACHED_WORKSPACES the oldest entry goes (one map, insertion order)
      this.cache.delete(workspaceId);
      if (this.cache.size >= MAX_CACHED_WORKSPACES) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(workspaceId, { at: Date.now(), subs });
    }
    return subs;
  }
}

/** Plane's `model_activity`: one activity per field whose value differs before and after the change. */
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>) {
  const out = [];
  for (const [key, old] of Object.entries(before)) {
    if (DERIVED_KEYS.has(key) || !(key in after)) continue;
    if (JSON.stringify(old) === JSON.stringify(after[key])) continue;
    out.push({ field: key, old_value: old, new_value: after[key], old_identifier: null, new_identifier: null });
  }
  // an update that changed nothing visible (e.g. members only) is still reported, without a field
  return out.length ? out : [null];
}
