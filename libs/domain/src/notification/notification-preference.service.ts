import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { iso } from '../kernel/time';
import { NotificationRepository } from './notification.repository';
import { UserNotificationPreference } from './user-notification-preference.entity';

/** The writable switches of `users/me/notification-preferences/`. */
export interface NotificationPreferenceInput {
  property_change?: boolean;
  state_change?: boolean;
  comment?: boolean;
  mention?: boolean;
  issue_completed?: boolean;
}

/** Plane's `UserNotificationPreferenceSerializer` (`fields = "__all__"`). */
export function notificationPreferenceView(p: UserNotificationPreference) {
  return {
    id: p.id,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
    deleted_at: iso(p.deletedAt),
    property_change: p.propertyChange,
    state_change: p.stateChange,
    comment: p.comment,
    mention: p.mention,
    issue_completed: p.issueCompleted,
    created_by: p.createdById,
    updated_by: p.updatedById,
    user: p.userId,
    workspace: p.workspaceId,
    project: p.projectId,
  };
}
export type NotificationPreferenceJson = ReturnType<typeof notificationPreferenceView>;

const COLUMNS = {
  property_change: 'propertyChange',
  state_change: 'stateChange',
  comment: 'comment',
  mention: 'mention',
  issue_completed: 'issueCompleted',
} as const;

/**
 * The user's email notification switches (Plane `plane/app/views/notification/base.py`
 * UserNotificationPreferenceEndpoint): one row per user, made on first use with every switch on
 * (Plane makes it at sign-up). They gate the work item notification emails (the
 * `email-notification` feature, docs/mail.md), not the in-app inbox (Plane does not filter it by
 * these either).
 */
@Injectable()
export class NotificationPreferenceService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repo: NotificationRepository,
  ) {}

  async get(userId: string): Promise<NotificationPreferenceJson> {
    return notificationPreferenceView(await this.ensure(this.dataSource.manager, userId));
  }

  /** Partial update of the switches (unknown fields ignored, as Plane's partial serializer). */
  async update(userId: string, input: NotificationPreferenceInput): Promise<NotificationPreferenceJson> {
    return this.dataSource.transaction(async (em) => {
      const row = await this.ensure(em, userId);
      const patch: Partial<UserNotificationPreference> = {};
      for (const [key, column] of Object.entries(COLUMNS)) {
        const value = input[key as keyof NotificationPreferenceInput];
        if (value !== undefined) patch[column] = value;
      }
      if (Object.keys(patch).length) await this.repo.updatePreference(em, row.id, { ...patch, updatedById: userId });
      return notificationPreferenceView(await this.repo.preferenceById(em, row.id));
    });
  }

  private async ensure(em: EntityManager, userId: string): Promise<UserNotificationPreference> {
    const found = await this.repo.userPreference(em, userId);
    if (found) return found;
    await this.repo.insertPreferenceIfMissing(em, userId);
    return this.repo.userPreference(em, userId, true);
  }
}
