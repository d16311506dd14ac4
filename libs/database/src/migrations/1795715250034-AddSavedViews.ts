import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddSavedViews1795715250034 implements MigrationInterface {
  name = 'AddSavedViews1795715250034';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "issue_views" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid,
                "name" character varying(255) NOT NULL,
                "description" text NOT NULL DEFAULT '',
                "query" jsonb NOT NULL DEFAULT '{}',
                "filters" jsonb NOT NULL DEFAULT '{}',
                "display_filters" jsonb NOT NULL DEFAULT '{}',
                "display_properties" jsonb NOT NULL DEFAULT '{}',
                "access" smallint NOT NULL DEFAULT '1',
                "sort_order" double precision NOT NULL DEFAULT '65535',
                "logo_props" jsonb NOT NULL DEFAULT '{}',
                "owned_by_id" uuid NOT NULL,
                "is_locked" boolean NOT NULL DEFAULT false,
                CONSTRAINT "PK_9d7978bafc67e4873846fb5c42a" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_issue_views_workspace" ON "issue_views" ("workspace_id")
            WHERE "deleted_at" IS NULL
                AND "project_id" IS NULL
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_issue_views_project" ON "issue_views" ("project_id")
            WHERE "deleted_at" IS NULL
                AND "project_id" IS NOT NULL
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_views"
            ADD CONSTRAINT "FK_eb74892a459a9ab0d0969284777" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_views"
            ADD CONSTRAINT "FK_a3b8a4988ce6eab1acb7402e556" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_views"
            ADD CONSTRAINT "FK_ea2c6f3622d95893073fa89245f" FOREIGN KEY ("owned_by_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "issue_views" DROP CONSTRAINT "FK_ea2c6f3622d95893073fa89245f"
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_views" DROP CONSTRAINT "FK_a3b8a4988ce6eab1acb7402e556"
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_views" DROP CONSTRAINT "FK_eb74892a459a9ab0d0969284777"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_issue_views_project"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_issue_views_workspace"
        `);
    await queryRunner.query(`
            DROP TABLE "issue_views"
        `);
  }
}
