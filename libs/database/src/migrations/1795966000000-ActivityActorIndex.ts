import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A user's history entries in time order (`issue_activities (actor_id, created_at)`): the home's
 * activity graph (`users/me/workspaces/{slug}/activity-graph/`, the caller's entries per day), the
 * profile's `user-activity/` and `users/me/activities/` read one actor's rows, where without it they
 * read every history row of the workspace (two and more per work item). `down` drops the index.
 */
export class ActivityActorIndex1795966000000 implements MigrationInterface {
  name = 'ActivityActorIndex1795966000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "ix_issue_activities_actor_created" ON "issue_activities" ("actor_id", "created_at")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "ix_issue_activities_actor_created"`);
  }
}
