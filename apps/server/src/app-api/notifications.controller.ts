import {
  APP_PAGED_ON_REQUEST,
  APP_UNPAGED,
  BearerAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  listAnswer,
  PageQuery,
  PageRequest,
  Principal,
  ProjectAccess,
  ProjectRole,
  ROLE,
  UuidPipe,
  WorkspaceAccess,
} from '#common';
import { IssueSubscriberService, NotificationService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { MarkAllReadDto, SnoozeNotificationDto, SubscribersDto } from './dto/notification.dto';
import { issueContext, single } from '../shared/context';

/**
 * The caller's notifications in a workspace (Plane 0.25.3 `app/urls/notification.py`): any member,
 * Guests included, reaches their own notifications only; anyone else's id is a 404. Notifications
 * are made by the domain when a work item changes (assignment, comment on a followed item, mention).
 */
@Controller('workspaces/:slug/users/notifications')
@BearerAuth()
export class NotificationsController {
  constructor(private readonly notifications: NotificationService) {}

  /**
   * Newest first: every one as a bare array, or a page with both `per_page` and `cursor` (Plane's
   * `NotificationViewSet.list`). Filters: `type` (comma-separated `assigned`, `created`,
   * `subscribed`), `read`, `archived` (default false), `snoozed` (default false), `mentioned`
   * (default false: mentions are listed only with `mentioned=true`, as in Plane).
   */
  @Get()
  async list(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @PageQuery(APP_PAGED_ON_REQUEST) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    const found = await this.notifications.list(
      ws.workspaceId,
      me.userId,
      ws.role,
      {
        type: single(query, 'type'),
        read: single(query, 'read'),
        archived: single(query, 'archived'),
        snoozed: single(query, 'snoozed'),
        mentioned: single(query, 'mentioned'),
      },
      page,
    );
    return listAnswer(page, found);
  }

  /** `{total_unread_notifications_count, mention_unread_notifications_count}`. */
  @Get('unread')
  unread(@CurrentPrincipal() me: Principal, @CurrentWorkspace() ws: WorkspaceAccess) {
    return this.notifications.unreadCounts(ws.workspaceId, me.userId);
  }

  /** 200 `{message}`: the caller's unread notifications become read (`type`, `archived`, `snoozed` narrow it). */
  @Post('mark-all-read')
  @HttpCode(200)
  markAllRead(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Body() body: MarkAllReadDto,
  ) {
    return this.notifications.markAllRead(ws.workspaceId, me.userId, ws.role, body);
  }

  @Get(':notification_id')
  retrieve(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('notification_id', UuidPipe) id: string,
  ) {
    return this.notifications.retrieve(ws.workspaceId, me.userId, id);
  }

  /** `{snoozed_till}` (ISO 8601 or null), the only writable field. */
  @Patch(':notification_id')
  snooze(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('notification_id', UuidPipe) id: string,
    @Body() body: SnoozeNotificationDto,
  ) {
    return this.notifications.snooze(ws.workspaceId, me.userId, id, body.snoozed_till);
  }

  @Delete(':notification_id')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('notification_id', UuidPipe) id: string,
  ) {
    await this.notifications.remove(ws.workspaceId, me.userId, id);
  }

  /** Mark read: 200 with the notification. */
  @Post(':notification_id/read')
  @HttpCode(200)
  markRead(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('notification_id', UuidPipe) id: string,
  ) {
    return this.notifications.markRead(ws.workspaceId, me.userId, id, true);
  }

  /** Mark unread: 200 with the notification. */
  @Delete(':notification_id/read')
  markUnread(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('notification_id', UuidPipe) id: string,
  ) {
    return this.notifications.markRead(ws.workspaceId, me.userId, id, false);
  }

  @Post(':notification_id/archive')
  @HttpCode(200)
  archive(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('notification_id', UuidPipe) id: string,
  ) {
    return this.notifications.archive(ws.workspaceId, me.userId, id, true);
  }

  @Delete(':notification_id/archive')
  unarchive(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('notification_id', UuidPipe) id: string,
  ) {
    return this.notifications.archive(ws.workspaceId, me.userId, id, false);
  }
}

/**
 * Who follows a work item (Plane 0.25.3 `issue-subscribers/` and `subscribe/`). Listing and the
 * caller's own subscription: any project member (a Guest only on work items they may see, else 404);
 * adding or removing others: project role ≥ 15.
 */
@Controller('workspaces/:slug/projects/:project_id/issues/:issue_id')
@BearerAuth()
export class WorkItemSubscribersController {
  constructor(private readonly subscribers: IssueSubscriberService) {}

  /** Every subscriber of the work item, a bare array (Plane's `IssueSubscriberViewSet.list`). */
  @Get('issue-subscribers')
  async list(
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @PageQuery(APP_UNPAGED) page: PageRequest,
  ) {
    return listAnswer(page, await this.subscribers.list(project.projectId, issueId, page));
  }

  /** `{subscribers: [user ids]}` (or `{subscriber}`) → 201 with every subscription; 422 for non-members. */
  @Post('issue-subscribers')
  add(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Body() body: SubscribersDto,
  ) {
    return this.subscribers.add(issueContext(me, ws, project), issueId, [
      ...(body.subscribers ?? []),
      ...(body.subscriber ? [body.subscriber] : []),
    ]);
  }

  /** 204; `{subscriber_id}` is the user's id; 404 when not subscribed. */
  @Delete('issue-subscribers/:subscriber_id')
  @HttpCode(204)
  async remove(
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('subscriber_id', UuidPipe) userId: string,
  ) {
    await this.subscribers.remove(project.projectId, issueId, userId);
  }

  /** `{subscribed: bool}` for the caller. */
  @Get('subscribe')
  status(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
  ) {
    return this.subscribers.status(project.projectId, issueId, me.userId, project.role);
  }

  /** 201 with the caller's subscription. */
  @Post('subscribe')
  @ProjectRole(ROLE.GUEST)
  subscribe(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
  ) {
    return this.subscribers.subscribe(issueContext(me, ws, project), issueId);
  }

  /** 204, also when not subscribed. */
  @Delete('subscribe')
  @ProjectRole(ROLE.GUEST)
  @HttpCode(204)
  async unsubscribe(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
  ) {
    await this.subscribers.unsubscribe(project.projectId, issueId, me.userId, project.role);
  }
}
