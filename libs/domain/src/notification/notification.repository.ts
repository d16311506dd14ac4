import { Page, PageRequest, paginate, ROLE } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull, SelectQueryBuilder } from 'typeorm';
import { guestRule } from '../issue';
import type { ChangeContext } from '../kernel/change-context';
import { IssueSubscriber } from './issue-subscriber.entity';
import { Notification } from './notification.entity';
import { UserNotificationPreference } from './user-notification-preference.entity';

/** Which of a receiver's notifications a query covers (Plane's list filters, already validated). */
export interface NotificationScope {
  workspaceId: string;
  userId: string;
  /** true: archived only; false: not archived */
  archived: boolean;
  /** true: snoozed until later only; false: not snoozed or the snooze is over */
  snoozed: boolean;
  /** true: read only; false: unread only; undefined: both */
  read?: boolean;
  /** true: mentions only; false: everything but mentions; undefined: both */
  mentioned?: boolean;
  /** Plane's `type` values (`assigned`, `created`, `subscribed`); undefined or with `all`: every type */
  types?: string[];
  /** the receiver's workspace role (Guests have no `created` notifications) */
  workspaceRole?: number;
}

/**
 * Adds subscribers to a work item (creator, assignee, commenter, mentioned user, or by hand) in
 * `em`'s transaction: `INSERT … ON CONFLICT DO NOTHING`, so existing rows stay. A plain function:
 * the change listeners (`notification-writer.ts`) and `IssueSubscriberService` share this one statement.
 */
export async function subscribe(
  em: EntityManager,
  ctx: ChangeContext,
  issueId: string,
  userIds: string[],
): Promise<void> {
  const ids = [...new Set(userIds)];
  if (!ids.length) return;
  await em
    .createQueryBuilder()
    .insert()
    .into(IssueSubscriber)
    .values(
      ids.map((subscriberId) => ({
        workspaceId: ctx.workspaceId,
        projectId: ctx.projectId,
        issueId,
        subscriberId,
        createdById: ctx.userId,
      })),
    )
    .orIgnore()
    .execute();
}

/**
 * Of `userIds`, the active members of the project, each with whether they may read a work item of
 * it created by `creatorId` (Plane's Guest rule, `guestRule`: a project Guest reads only the work
 * items they created unless the project has `guest_view_all_features`; the other roles read all).
 * One statement in `em`'s transaction; users who are not active members are left out. The create
 * path asks before the work item exists, with its creator.
 */
export async function activeMembersReading(
  em: EntityManager,
  projectId: string,
  creatorId: string | null,
  userIds: string[],
): Promise<Map<string, boolean>> {
  const ids = [...new Set(userIds)];
  if (!ids.length) return new Map();
  const rows: Array<{ id: string; reads: boolean }> = await em.query(
    `SELECT pm.member_id::text AS id, (pm.role > ${ROLE.GUEST} OR ${guestRule('pm.member_id')}) IS TRUE AS reads
       FROM project_members pm
       JOIN projects p ON p.id = pm.project_id
       CROSS JOIN (SELECT $3::uuid AS created_by_id) i
      WHERE pm.project_id = $1 AND pm.member_id = ANY($2::uuid[]) AND pm.is_active = true AND pm.deleted_at IS NULL`,
    [projectId, ids, creatorId],
  );
  return new Map(rows.map((r) => [r.id, r.reads]));
}

/** Inserts notification rows (one statement) in `em`'s transaction; `notification-writer.ts` builds them. */
export async function insertNotifications(em: EntityManager, rows: Array<Partial<Notification>>): Promise<void> {
  await em.insert(Notification, rows as never);
}

/** The user ids subscribed to the work item. */
export async function subscriberIds(em: EntityManager, issueId: string): Promise<string[]> {
  return (await em.getRepository(IssueSubscriber).find({ where: { issueId } })).map((s) => s.subscriberId);
}

/**
 * A notification about a work item its receiver may no longer read: they are a Guest of its project
 * and Plane's Guest rule (`guestRule`) refuses it (the project's `guest_view_all_features` was
 * switched off, or a Member became a Guest, after it was written). For `NOT EXISTS`, on alias `n`.
 * The outer references are in the WHERE only (none in a JOIN's ON), so PostgreSQL plans the
 * `NOT EXISTS` as an anti-join: the receiver's Guest memberships are read once per statement (none
 * for most users), not three index lookups per notification.
 */
const UNREADABLE_BY_GUEST = `SELECT 1 FROM issues i
  JOIN projects p ON p.id = i.project_id
  JOIN project_members pm ON pm.project_id = i.project_id
   AND pm.is_active = true AND pm.deleted_at IS NULL AND pm.role <= ${ROLE.GUEST}
  WHERE n.entity_name = 'issue' AND i.id = n.entity_identifier AND pm.member_id = n.receiver_id
    AND ${guestRule('pm.member_id')} IS NOT TRUE`;

/** Plane's `type` values as sets of work item ids, for `:me`: `assigned`, `created`, and `subscribed` (neither of the others). */
const ISSUES_ASSIGNED = 'SELECT a.issue_id FROM issue_assignees a WHERE a.assignee_id = :me';
const ISSUES_CREATED = 'SELECT i.id FROM issues i WHERE i.created_by_id = :me';
const ISSUES_SUBSCRIBED_ONLY = `SELECT s.issue_id FROM issue_subscribers s WHERE s.subscriber_id = :me
  AND NOT EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = s.issue_id AND a.assignee_id = :me)
  AND NOT EXISTS (SELECT 1 FROM issues i WHERE i.id = s.issue_id AND i.created_by_id = :me)`;

/**
 * All SQL of the notification feature: the receiver's notifications with Plane's filters, their
 * unread counts, and the subscriber rows. Methods that take an `EntityManager` run in the caller's
 * transaction.
 */
@Injectable()
export class NotificationRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Soft-deletes the notification `id`. */
  async softDeleteNotification(id: string): Promise<void> {
    await this.dataSource.getRepository(Notification).softDelete({ id });
  }

  /** Writes `patch` to the notification `id`. */
  async updateNotification(id: string, patch: Partial<Notification>): Promise<void> {
    await this.dataSource.getRepository(Notification).update({ id }, patch as never);
  }

  /** The work item's subscriptions, oldest first (every one: the routes that list them add few). */
  subscribers(issueId: string): Promise<IssueSubscriber[]> {
    return this.dataSource
      .getRepository(IssueSubscriber)
      .find({ where: { issueId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The user's subscription to the work item, or null. */
  subscription(issueId: string, subscriberId: string): Promise<IssueSubscriber | null> {
    return this.dataSource.getRepository(IssueSubscriber).findOneBy({ issueId, subscriberId });
  }

  /** Whether the user is subscribed to the work item. */
  isSubscribed(issueId: string, subscriberId: string): Promise<boolean> {
    return this.dataSource.getRepository(IssueSubscriber).exists({ where: { issueId, subscriberId } });
  }

  /** Removes the user's subscription to the work item; whether there was one. */
  async unsubscribe(projectId: string, issueId: string, subscriberId: string): Promise<boolean> {
    const res = await this.dataSource.getRepository(IssueSubscriber).delete({ projectId, issueId, subscriberId });
    return !!res.affected;
  }

  /** The user's own notification preference row (no workspace, no project), or null (`orFail`: throws). */
  userPreference(em: EntityManager, userId: string, orFail?: false): Promise<UserNotificationPreference | null>;
  userPreference(em: EntityManager, userId: string, orFail: true): Promise<UserNotificationPreference>;
  userPreference(em: EntityManager, userId: string, orFail = false): Promise<UserNotificationPreference | null> {
    const where = { userId, workspaceId: IsNull(), projectId: IsNull() };
    const repo = em.getRepository(UserNotificationPreference);
    return orFail ? repo.findOneByOrFail(where) : repo.findOneBy(where);
  }

  /** The preference row `id`; throws when it is gone. */
  preferenceById(em: EntityManager, id: string): Promise<UserNotificationPreference> {
    return em.getRepository(UserNotificationPreference).findOneByOrFail({ id });
  }

  /** Writes `patch` to the preference row `id`. */
  async updatePreference(em: EntityManager, id: string, patch: Partial<UserNotificationPreference>): Promise<void> {
    await em.update(UserNotificationPreference, { id }, patch as never);
  }

  /** A page of the receiver's notifications in the scope, newest first. */
  listPage(scope: NotificationScope, page: PageRequest): Promise<Page<Notification>> {
    return paginate(this.scoped(scope), page, { order: 'DESC' });
  }

  /** The ids of the receiver's unread notifications in the scope. */
  async findUnreadIds(scope: NotificationScope): Promise<string[]> {
    const qb = this.mine(scope.workspaceId, scope.userId).select('n.id', 'id').andWhere('n.readAt IS NULL');
    this.narrow(qb, scope);
    return (await qb.getRawMany<{ id: string }>()).map((r) => r.id);
  }

  /** Unread, unarchived, not snoozed notifications of the receiver: how many are not mentions, how many are. */
  async countUnread(workspaceId: string, userId: string): Promise<{ total: number; mentions: number }> {
    const qb = this.mine(workspaceId, userId).andWhere('n.readAt IS NULL');
    this.narrow(qb, { workspaceId, userId, archived: false, snoozed: false });
    const row = await qb
      .select("COUNT(*) FILTER (WHERE n.sender NOT LIKE '%mentioned%')", 'total')
      .addSelect("COUNT(*) FILTER (WHERE n.sender LIKE '%mentioned%')", 'mentions')
      .getRawOne<{ total: string; mentions: string }>();
    return { total: Number(row?.total ?? 0), mentions: Number(row?.mentions ?? 0) };
  }

  /** A page of a work item's subscribers (the cursor envelope's order). */
  listSubscribersPage(issueId: string, page: PageRequest): Promise<Page<IssueSubscriber>> {
    const qb = this.dataSource
      .getRepository(IssueSubscriber)
      .createQueryBuilder('s')
      .where('s.issueId = :issueId', { issueId });
    return paginate(qb, page);
  }

  /** The receiver's notification `id` in the workspace (the Guest rule applied, as in the lists), or null. */
  findMine(workspaceId: string, userId: string, id: string): Promise<Notification | null> {
    return this.mine(workspaceId, userId).andWhere('n.id = :id', { id }).getOne();
  }

  /** The notifications with these ids are read now. */
  async markRead(ids: string[]): Promise<void> {
    await this.dataSource.getRepository(Notification).update({ id: In(ids) }, { readAt: new Date() });
  }

  /**
   * The receiver's notifications in the workspace, without those about work items they may not read
   * as a project Guest (`UNREADABLE_BY_GUEST`): what every list, count and single read starts from.
   */
  private mine(workspaceId: string, userId: string): SelectQueryBuilder<Notification> {
    return this.dataSource
      .getRepository(Notification)
      .createQueryBuilder('n')
      .where('n.workspaceId = :workspaceId AND n.receiverId = :userId', { workspaceId, userId })
      .andWhere(`NOT EXISTS (${UNREADABLE_BY_GUEST})`);
  }

  private scoped(scope: NotificationScope): SelectQueryBuilder<Notification> {
    const qb = this.mine(scope.workspaceId, scope.userId);
    this.narrow(qb, scope);
    return qb;
  }

  /** archived/snoozed, then read, mentioned and type, in that order. */
  private narrow(qb: SelectQueryBuilder<Notification>, s: NotificationScope): void {
    qb.andWhere(s.archived ? 'n.archivedAt IS NOT NULL' : 'n.archivedAt IS NULL');
    qb.andWhere(s.snoozed ? 'n.snoozedTill > now()' : '(n.snoozedTill IS NULL OR n.snoozedTill <= now())');
    if (s.read !== undefined) qb.andWhere(s.read ? 'n.readAt IS NOT NULL' : 'n.readAt IS NULL');
    if (s.mentioned !== undefined)
      qb.andWhere(s.mentioned ? "n.sender LIKE '%mentioned%'" : "n.sender NOT LIKE '%mentioned%'");
    if (s.types && !s.types.includes('all')) this.byType(qb, s.types, s.userId, s.workspaceRole ?? 0);
  }

  /**
   * Plane's `type`: assigned (the caller is an assignee), created (the caller created it; none for
   * Guests), subscribed (neither). One `IN` over the union of the requested sets, so PostgreSQL
   * plans it as a semi-join (a hash of the caller's work items, or a lookup per notification,
   * whichever is cheaper) and estimates it as such; an `OR` of correlated `EXISTS` was estimated at
   * tens of cost units per notification, which at 10,000 notifications passed PostgreSQL's
   * `jit_above_cost` and made every count compile itself (BENCHMARKS.md "The inbox and a work
   * item's history at size").
   */
  private byType(qb: SelectQueryBuilder<Notification>, types: string[], userId: string, workspaceRole: number): void {
    const sets: string[] = [];
    if (types.includes('assigned')) sets.push(ISSUES_ASSIGNED);
    if (types.includes('created') && workspaceRole >= ROLE.MEMBER) sets.push(ISSUES_CREATED);
    if (types.includes('subscribed')) sets.push(ISSUES_SUBSCRIBED_ONLY);
    if (!sets.length) qb.andWhere('false');
    else qb.andWhere(`n.entity_identifier IN (${sets.join(' UNION ALL ')})`, { me: userId });
  }

  /** Creates the user's notification preference row with Plane's defaults (all on) unless it exists. */
  async insertPreferenceIfMissing(em: EntityManager, userId: string): Promise<void> {
    await em
      .createQueryBuilder()
      .insert()
      .into(UserNotificationPreference)
      .values({ userId, createdById: userId, updatedById: userId })
      .orIgnore()
      .execute();
  }
}
