import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ChangeEvents, OnChange } from '../kernel/change-bus';
import { ActivityEntry, writeActivities } from './activity-writer';
import { IssueRepository } from './issue.repository';

/** Work item rules that follow from other features' changes, in the writer's transaction. */
@Injectable()
export class IssueListener {
  constructor(private readonly repo: IssueRepository) {}

  /**
   * Estimate points deleted (with their estimate, or one by one): the work items that used them
   * lose their point, each with a history row "removed the estimate point" (old value and id).
   */
  @OnChange('estimate.points-removed')
  async onEstimatePointsRemoved(
    em: EntityManager,
    { ctx, points }: ChangeEvents['estimate.points-removed'],
  ): Promise<void> {
    const byId = new Map(points.map((p) => [p.id, p]));
    const issues = await this.repo.issuesWithEstimatePoints(em, [...byId.keys()]);
    if (!issues.length) return;
    await this.repo.updateIssues(
      em,
      issues.map((i) => i.id),
      { estimatePointId: null, updatedById: ctx.userId },
    );
    const history: ActivityEntry[] = issues.map((i) => ({
      issueId: i.id,
      verb: 'updated',
      field: 'estimate_point',
      oldValue: byId.get(i.estimatePointId!)?.value ?? null,
      newValue: null,
      oldIdentifier: i.estimatePointId,
      newIdentifier: null,
      comment: 'removed the estimate point',
    }));
    await writeActivities(em, ctx, history);
  }
}
