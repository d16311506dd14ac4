import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PreferenceRepository } from './preference.repository';
import { RecentVisitJson, recentVisitView } from './preference.view';
import { RecentVisitEntity } from './user-recent-visit.entity';

/**
 * The caller's recently visited work items and projects in a workspace (Plane 0.25.3
 * `plane/app/views/workspace/recent_visit.py` UserRecentVisitViewSet, filled like Plane's
 * `recent_visited_task` when a project or work item is opened).
 */
@Injectable()
export class RecentVisitService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repo: PreferenceRepository,
  ) {}

  /** The 20 latest, newest visit first; `entityName` (`issue`, `project`) keeps one kind. */
  async list(workspaceId: string, userId: string, entityName?: string): Promise<RecentVisitJson[]> {
    return (await this.repo.recentVisits(workspaceId, userId, entityName)).map(recentVisitView);
  }

  /**
   * Records that the user opened the project or work item now (the project's id for both). A
   * failure is swallowed, as Plane's background task does: a visit is never worth a failed read.
   */
  async record(
    workspaceId: string,
    userId: string,
    entityName: RecentVisitEntity,
    entityIdentifier: string,
    projectId: string,
  ): Promise<void> {
    try {
      await this.dataSource.transaction((em) =>
        this.repo.recordVisit(em, { workspaceId, userId, entityName, entityIdentifier, projectId }),
      );
    } catch {
      // Plane records visits in a background task and ignores its errors.
    }
  }
}
