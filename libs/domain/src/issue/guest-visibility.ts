import { SelectQueryBuilder } from 'typeorm';
import { Issue } from './issue.entity';

/**
 * Plane's Guest rule for work items (`IssueViewSet.list` and `retrieve`, the comment and
 * subscription views at v0.25.3): a Guest sees only the work items they created, unless the project
 * has `guest_view_all_features`. Narrows a query over the alias `i` joined to its project as `p`;
 * the caller decides who counts as a Guest.
 */
export function onlyWhatGuestSees(qb: SelectQueryBuilder<Issue>, viewerId: string): SelectQueryBuilder<Issue> {
  return qb.andWhere('(i.createdById = :guestViewerId OR p.guestViewAllFeatures = true)', { guestViewerId: viewerId });
}
