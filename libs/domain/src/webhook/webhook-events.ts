import { EntityManager, QueryRunner } from 'typeorm';
import type { ActivityEntry, ChangeContext } from '../kernel/change-context';
import type { WebhookEvent } from './webhook.entity';

export type WebhookAction = 'created' | 'updated' | 'deleted';

/** The `activity` object of a delivery body (Plane's `webhook_activity`), without `actor` (rendered at commit). */
export interface WebhookActivityFields {
  field: string | null;
  new_value: unknown;
  old_value: unknown;
  old_identifier: string | null;
  new_identifier: string | null;
}

/**
 * A change to report, buffered until its transaction commits. `entityId` names the object whose
 * current representation becomes `data` (`{id}` for deletes). For `updated` events with `before`
 * (the object's plain view before the change), the commit renders one event per changed field, as
 * Plane's `model_activity` does; `intake_issue` events may name the work item instead of the row.
 */
export interface PendingWebhookEvent {
  workspaceId: string;
  event: WebhookEvent;
  action: WebhookAction;
  entityId: string;
  actorId: string | null;
  activity?: WebhookActivityFields;
  before?: Record<string, unknown>;
  /** the transaction depth (savepoints) it was queued at; a rollback to a savepoint drops deeper events */
  depth?: number;
}

/** An active webhook's event switches, as the outbox needs them (a row of `SQL_WEBHOOK_SUBSCRIPTIONS`). */
export interface WebhookSubscription {
  id: string;
  project: boolean;
  issue: boolean;
  module: boolean;
  cycle: boolean;
  issue_comment: boolean;
}

interface TransactionEvents {
  events: PendingWebhookEvent[];
  /** work item history in this transaction reports `intake_issue` events (Plane's intake flows) */
  intake: boolean;
  /** the webhooks of a workspace, looked up early in the transaction (`prepareWebhookSubscriptions`) */
  subscriptions: Map<string, WebhookSubscription[]>;
}

const pending = new WeakMap<QueryRunner, TransactionEvents>();
/** What the queueing functions need from the outbox: how to write events at once, how to look webhooks up. */
export interface WebhookOutboxPort {
  /** writes the deliveries of events queued outside a transaction, at once */
  flush(em: EntityManager, events: PendingWebhookEvent[]): Promise<void>;
  /** a workspace's webhooks (the outbox's cache, else the table) */
  subscriptions(em: EntityManager, workspaceId: string): Promise<WebhookSubscription[]>;
}

const depthOf = (qr: QueryRunner): number => (qr as unknown as { transactionDepth?: number }).transactionDepth ?? 1;

function stateOf(qr: QueryRunner): TransactionEvents {
  let state = pending.get(qr);
  if (!state) pending.set(qr, (state = { events: [], intake: false, subscriptions: new Map() }));
  return state;
}

/**
 * Takes the events of a committing transaction (outermost commit only), with the webhooks looked
 * up earlier in it by workspace (the outbox looks up the others).
 */
export function takeWebhookEvents(qr: QueryRunner): {
  events: PendingWebhookEvent[];
  subscriptions: Map<string, WebhookSubscription[]>;
} {
  const state = pending.get(qr);
  pending.delete(qr);
  return { events: state?.events ?? [], subscriptions: state?.subscriptions ?? new Map() };
}

/**
 * Looks up the webhooks of `workspaceId` now, in `em`'s transaction, and has the commit use that
 * answer instead of looking them up under whatever lock the transaction holds by then (the create
 * path calls it before it takes the project's counter row lock). No-op outside a transaction.
 *
 * Why no event is lost: the answer decides which webhooks get deliveries, not what they say (the
 * deliveries are still rendered at commit, from the rows as committed). A webhook that exists when
 * the lookup runs is in the answer. One created by another transaction that commits after the
 * lookup but before this one commits is not — but the same was true of the lookup at commit (a
 * webhook committed between that lookup and COMMIT is missed too), and the outbox's per-process
 * cache (`WEBHOOK_SUBSCRIPTION_CACHE_MS`, 5 s) already allows a much longer window: an earlier
 * lookup only moves the instant by the lock wait and the writes, milliseconds. Nothing orders a
 * webhook's creation against a concurrent change, so both outcomes are correct serialisations. A
 * webhook switched off or deleted in that window may get one delivery, as with the cache.
 * Answers the webhooks (the commit will use this list), or null when it cannot tell (outside a
 * transaction, or no outbox in this process).
 */
export async function prepareWebhookSubscriptions(
  em: EntityManager,
  workspaceId: string,
  outbox: WebhookOutboxPort,
): Promise<WebhookSubscription[] | null> {
  const qr = em.queryRunner;
  if (!qr?.isTransactionActive) return null;
  const state = stateOf(qr);
  let subs = state.subscriptions.get(workspaceId);
  if (!subs) state.subscriptions.set(workspaceId, (subs = await outbox.subscriptions(em, workspaceId)));
  return subs;
}

/** Forgets the events queued below `depth` (a rollback to a savepoint, or the whole transaction at 0). */
export function dropWebhookEvents(qr: QueryRunner, depth: number): void {
  const state = pending.get(qr);
  if (!state) return;
  if (depth <= 0) pending.delete(qr);
  else state.events = state.events.filter((e) => (e.depth ?? 1) <= depth);
}

/**
 * Queues a webhook event in `em`'s transaction: nothing is read or written now; at commit the
 * outbox renders it for each active subscribed webhook and inserts the deliveries in the same
 * transaction, so a rolled-back change sends nothing. Outside a transaction it is written at once.
 */
export async function enqueueWebhookEvent(
  em: EntityManager,
  event: PendingWebhookEvent,
  outbox: WebhookOutboxPort,
): Promise<void> {
  const qr = em.queryRunner;
  if (qr?.isTransactionActive) {
    stateOf(qr).events.push({ ...event, depth: depthOf(qr) });
    return;
  }
  await outbox.flush(em, [event]);
}

/** Work item history written in this transaction reports `intake_issue` events (an intake create or triage). */
export function markWebhookIntake(em: EntityManager): void {
  if (em.queryRunner?.isTransactionActive) stateOf(em.queryRunner).intake = true;
}

const blankToNull = (v: string | null | undefined) => (v === undefined || v === '' ? null : v);

/**
 * The webhook events of work item history rows (Plane's `issue_activity` → `webhook_activity`), one
 * per row: `issue_comment` for comment rows (`activity.field` = `description`, as Plane), else
 * `issue` (or `intake_issue` inside an intake transaction). The action is the row's verb, except
 * that removing a sub-object (link, attachment, …) is an `updated` work item: only the work item's
 * own deletion is `deleted` (Plane sends `deleted` with the work item's id for a removed link).
 */
export async function queueIssueActivityEvents(
  em: EntityManager,
  ctx: ChangeContext,
  entries: ActivityEntry[],
  outbox: WebhookOutboxPort,
): Promise<void> {
  const qr = em.queryRunner;
  const state = qr?.isTransactionActive ? stateOf(qr) : null;
  const events: PendingWebhookEvent[] = [];
  for (const e of entries) {
    if (!e.issueId) continue;
    const isComment = e.field === 'comment' && !!e.issueCommentId;
    const event: WebhookEvent = isComment ? 'issue_comment' : state?.intake ? 'intake_issue' : 'issue';
    let action: WebhookAction;
    if (isComment) action = e.verb === 'created' || e.verb === 'deleted' ? e.verb : 'updated';
    else if (e.verb === 'deleted' && e.field === 'issue') action = 'deleted';
    else if (e.verb === 'created' && !e.field) action = 'created';
    else action = 'updated';
    events.push({
      workspaceId: ctx.workspaceId,
      event,
      action,
      entityId: isComment ? e.issueCommentId! : e.issueId,
      actorId: ctx.userId,
      activity: {
        field: isComment ? 'description' : (e.field ?? null),
        new_value: blankToNull(e.newValue),
        old_value: blankToNull(e.oldValue),
        old_identifier: e.oldIdentifier ?? null,
        new_identifier: e.newIdentifier ?? null,
      },
      depth: qr ? depthOf(qr) : 1,
    });
  }
  if (!events.length) return;
  if (state) state.events.push(...events);
  else await outbox.flush(em, events);
}
