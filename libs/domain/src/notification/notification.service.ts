import { MeridianError, Page, PageRequest, validationError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ChangeContext } from '../issue';
import { IntakeService } from '../intake';
import { IssueQueryService } from '../issue';
import { ProjectMemberService } from '../project';
import { UserProfileService } from '../user';
import { found } from '../kernel/db-errors';
import { Notification } from './notification.entity';
import { NotificationRepository, subscribe } from './notification.repository';
import { NotificationJson, notificationView, SubscriberJson, subscriberView } from './notification.view';

/** Filters of the notification list (Plane's query parameters). */
export interface NotificationFilters {
  /** comma-separated `assigned`, `created`, `subscribed`; absent or `all`: every notification */
  type?: string;
  /** `true`: read only; `false`: unread only */
  read?: string;
  /** `true`: archived only; else (default) not archived */
  archived?: string;
  /** `true`: snoozed until later only; else (default) not snoozed or the snooze is over */
  snoozed?: string;
  /** `true`: only mentions; else (default) everything but mentions, as in Plane */
  mentioned?: string;
}

const TYPES = ['all', 'assigned', 'created', 'subscribed'];

function flag(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new MeridianError('INVALID_QUERY_PARAMETER', `${name} must be true or false.`);
}

/**
 * The caller's notifications in a workspace (Plane 0.25.3's `users/notifications/`). A user only
 * ever reaches their own: another user's notification, or one of another workspace, is a 404.
 */
@Injectable()
export class NotificationService {
  constructor(
    private readonly repo: NotificationRepository,
    private readonly users: UserProfileService,
    private readonly intakes: IntakeService,
  ) {}

  /** Newest first, paginated; filters as `NotificationFilters`; 400 `INVALID_QUERY_PARAMETER` for a bad value. */
  async list(
    workspaceId: string,
    userId: string,
    workspaceRole: number,
    filters: NotificationFilters,
    page: PageRequest,
  ): Promise<Page<NotificationJson>> {
    const types = (filters.type || 'all')
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    const bad = types.find((t) => !TYPES.includes(t));
    if (bad)
      throw new MeridianError(
        'INVALID_QUERY_PARAMETER',
        `type must be a comma-separated list of: ${TYPES.join(', ')}.`,
      );
    const read = flag('read', filters.read);
    const archived = flag('archived', filters.archived) ?? false;
    const snoozed = flag('snoozed', filters.snoozed) ?? false;
    const mentioned = flag('mentioned', filters.mentioned) ?? false;
    const scope = { workspaceId, userId, archived, snoozed, read, mentioned, types, workspaceRole };
    return this.render(await this.repo.listPage(scope, page));
  }

  async retrieve(workspaceId: string, userId: string, id: string): Promise<NotificationJson> {
    return (await this.render(new Page([await this.load(workspaceId, userId, id)], 1, 1, null, null))).results[0];
  }

  /** `snoozed_till` (ISO 8601 or null) is the only writable field, as in Plane. */
  async snooze(
    workspaceId: string,
    userId: string,
    id: string,
    snoozedTill: string | null | undefined,
  ): Promise<NotificationJson> {
    let value: Date | null = null;
    if (snoozedTill !== undefined && snoozedTill !== null) {
      value = new Date(snoozedTill);
      if (Number.isNaN(value.getTime())) throw validationError({ snoozed_till: ['Not a valid date and time.'] });
    }
    return this.set(workspaceId, userId, id, { snoozedTill: value });
  }

  markRead(workspaceId: string, userId: string, id: string, read: boolean): Promise<NotificationJson> {
    return this.set(workspaceId, userId, id, { readAt: read ? new Date() : null });
  }

  archive(workspaceId: string, userId: string, id: string, archived: boolean): Promise<NotificationJson> {
    return this.set(workspaceId, userId, id, { archivedAt: archived ? new Date() : null });
  }

  async remove(workspaceId: string, userId: string, id: string): Promise<void> {
    await this.load(workspaceId, userId, id);
    await this.repo.softDeleteNotification(id);
  }

  /** Marks the caller's unread notifications read (Plane's `mark-all-read/`: `snoozed`, `archived`, `type` narrow it). */
  async markAllRead(
    workspaceId: string,
    userId: string,
    workspaceRole: number,
    body: { snoozed?: boolean; archived?: boolean; type?: string },
  ): Promise<{ message: string }> {
    const type = body.type === 'watching' ? 'subscribed' : body.type;
    let types: string[] | undefined;
    if (type && type !== 'all') {
      if (!TYPES.includes(type)) throw validationError({ type: [`Must be one of: ${TYPES.join(', ')}, watching.`] });
      types = [type];
    }
    const scope = { workspaceId, userId, archived: !!body.archived, snoozed: !!body.snoozed, types, workspaceRole };
    const ids = await this.repo.findUnreadIds(scope);
    if (ids.length) await this.repo.markRead(ids);
    return { message: 'Successful' };
  }

  /** Unread, unarchived, not snoozed: `{total_unread_notifications_count, mention_unread_notifications_count}`. */
  async unreadCounts(workspaceId: string, userId: string) {
    const { total, mentions } = await this.repo.countUnread(workspaceId, userId);
    return { total_unread_notifications_count: total, mention_unread_notifications_count: mentions };
  }

  private async set(
    workspaceId: string,
    userId: string,
    id: string,
    patch: Partial<Notification>,
  ): Promise<NotificationJson> {
    await this.load(workspaceId, userId, id);
    await this.repo.updateNotification(id, { ...patch, updatedById: userId });
    return this.retrieve(workspaceId, userId, id);
  }

  /** The caller's notification; 404 for another's, and for one about a work item they may not read as a Guest. */
  private async load(workspaceId: string, userId: string, id: string): Promise<Notification> {
    const n = await this.repo.findMine(workspaceId, userId, id);
    if (!n) throw new MeridianError('NOT_FOUND');
    return n;
  }

  private async render(page: Page<Notification>): Promise<Page<NotificationJson>> {
    const actorIds = [...new Set(page.results.map((n) => n.triggeredById).filter((x): x is string => !!x))];
    const actors = await this.users.liveUsers(actorIds);
    const byId = new Map(actors.map((u) => [u.id, u]));
    const issueIds = [...new Set(page.results.map((n) => n.entityIdentifier).filter((x): x is string => !!x))];
    // waiting in intake: snoozed (0), duplicate (2) or pending (-2)
    const intake = await this.intakes.issuesWithIntakeStatus(issueIds, [0, 2, -2]);
    return page.map((n) =>
      notificationView(
        n,
        n.triggeredById ? byId.get(n.triggeredById) : undefined,
        !!n.entityIdentifier && intake.has(n.entityIdentifier),
      ),
    );
  }
}

/**
 * Who follows a work item (Plane's `issue-subscribers/` and `subscribe/`). Creators, assignees,
 * commenters and mentioned users are subscribed automatically (`notifyFromActivities`); these
 * routes list them and add or remove them by hand. Only active project members can be subscribed.
 */
@Injectable()
export class IssueSubscriberService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly issues: IssueQueryService,
    private readonly repo: NotificationRepository,
    private readonly users: UserProfileService,
    private readonly members: ProjectMemberService,
  ) {}

  /** Oldest first, paginated. */
  async list(projectId: string, issueId: string, page: PageRequest): Promise<Page<SubscriberJson>> {
    await this.issues.assertExists(projectId, issueId);
    const result = await this.repo.listSubscribersPage(issueId, page);
    const users = await this.users.liveUsers(result.results.map((s) => s.subscriberId));
    const byId = new Map(users.map((u) => [u.id, u]));
    return result.map((s) => subscriberView(s, byId.get(s.subscriberId)));
  }

  /** Subscribes active project members (201, every subscription of the work item); 422 for anyone else. */
  async add(ctx: ChangeContext, issueId: string, userIds: string[]): Promise<SubscriberJson[]> {
    await this.dataSource.transaction(async (em) => {
      await this.issues.assertExists(ctx.projectId, issueId, em);
      const ids = [...new Set(userIds.map((u) => u.toLowerCase()))];
      const members = await this.members.activeMemberIdsAmong(ctx.projectId, ids, em);
      const missing = ids.filter((id) => !members.includes(id));
      if (missing.length)
        throw validationError({ subscribers: [`Not members of the project: ${missing.join(', ')}.`] });
      await subscribe(em, ctx, issueId, ids);
    });
    const rows = await this.repo.subscribers(issueId);
    const users = await this.users.liveUsers(rows.map((r) => r.subscriberId));
    return rows.map((s) =>
      subscriberView(
        s,
        users.find((u) => u.id === s.subscriberId),
      ),
    );
  }

  /** Removes one subscriber (by user id); 404 when that user is not subscribed. */
  async remove(projectId: string, issueId: string, userId: string): Promise<void> {
    await this.issues.assertExists(projectId, issueId);
    if (!(await this.repo.unsubscribe(projectId, issueId, userId))) throw new MeridianError('NOT_FOUND');
  }

  /**
   * The caller's own subscription (`status`, `subscribe`, `unsubscribe`): any project member (Plane's
   * ProjectLite rule), a Guest only on the work items they may see (`IssueQueryService.assertVisibleTo`), else 404.
   */
  async status(
    projectId: string,
    issueId: string,
    userId: string,
    role: number | null,
  ): Promise<{ subscribed: boolean }> {
    await this.issues.assertVisibleTo(projectId, issueId, { userId, role });
    return {
      subscribed: await this.repo.isSubscribed(issueId, userId),
    };
  }

  /**
   * Whether the user follows the work item (Plane's `is_subscribed` on the App API's work item
   * detail, an `Exists` over `IssueSubscriber`). No visibility check: for a caller that has read
   * the work item already.
   */
  isSubscribed(issueId: string, userId: string): Promise<boolean> {
    return this.repo.isSubscribed(issueId, userId);
  }

  /** The caller subscribes (201 with the row; the same row when already subscribed). */
  async subscribe(ctx: ChangeContext & { role: number | null }, issueId: string): Promise<SubscriberJson> {
    await this.dataSource.transaction(async (em) => {
      await this.issues.assertVisibleTo(ctx.projectId, issueId, ctx, em);
      await subscribe(em, ctx, issueId, [ctx.userId]);
    });
    const row = await found(this.repo.subscription(issueId, ctx.userId));
    const [user] = await this.users.liveUsers([ctx.userId]);
    return subscriberView(row, user);
  }

  /** The caller unsubscribes: 204, also when not subscribed. */
  async unsubscribe(projectId: string, issueId: string, userId: string, role: number | null): Promise<void> {
    await this.issues.assertVisibleTo(projectId, issueId, { userId, role });
    await this.repo.unsubscribe(projectId, issueId, userId);
  }
}
