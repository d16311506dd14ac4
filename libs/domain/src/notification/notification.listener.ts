import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { IssueQueryService } from '../issue';
import { ChangeEvents, IssueCreateDraft, OnChange } from '../kernel/change-bus';
import { ProjectService } from '../project';
import { StateService } from '../state';
import {
  CreateNotificationPlan,
  notifyFromActivities,
  planCreateNotifications,
  writeCreateNotifications,
  WriterReads,
} from './notification-writer';

const PLAN = 'notification';

/**
 * Notifications and subscriptions as listeners of work item changes, in the writer's transaction:
 * from history rows (`issue.activities`: assignments, comments, mentions) and from a create
 * (`issue.create.prepare` decides the subscribers and who is notified before any lock;
 * `issue.created` inserts the notifications). The rules are in `notification-writer.ts`.
 */
@Injectable()
export class NotificationListener {
  /** The writer's reads of the work item, its project and state, through their rooms' doors. */
  private readonly reads: WriterReads;

  constructor(issues: IssueQueryService, projects: ProjectService, states: StateService) {
    this.reads = {
      issue: (em, id) => issues.liveIssue(id, em),
      assigneeIds: (em, issueId) => issues.assigneeIds(issueId, em),
      projectIdentifier: async (em, projectId) => (await projects.findWithDeleted(projectId, em))?.identifier ?? null,
      state: async (em, stateId) => {
        const [s] = await states.statesWithDeleted([stateId], em);
        return s ? { name: s.name, group: s.group } : null;
      },
    };
  }

  @OnChange('issue.activities')
  onIssueActivities(em: EntityManager, { ctx, entries, activityIds }: ChangeEvents['issue.activities']): Promise<void> {
    return notifyFromActivities(this.reads, em, ctx, entries, activityIds);
  }

  @OnChange('issue.create.prepare')
  async onIssueCreatePrepare(em: EntityManager, draft: IssueCreateDraft): Promise<void> {
    const plan = await planCreateNotifications(
      this.reads,
      em,
      draft.ctx,
      draft.assigned,
      draft.descriptionHtml,
      draft.state,
    );
    draft.subscribers = plan.subscribers;
    if (plan.notifications.length) draft.needsTransaction = true;
    draft.scratch.set(PLAN, plan);
  }

  @OnChange('issue.created')
  async onIssueCreated(
    em: EntityManager,
    { draft, issue, entry, activityId }: ChangeEvents['issue.created'],
  ): Promise<void> {
    const plan = draft.scratch.get(PLAN) as CreateNotificationPlan | undefined;
    if (plan) await writeCreateNotifications(em, draft.ctx, plan, issue, entry, activityId);
  }
}
