import { MigrationInterface, QueryRunner } from 'typeorm';

export class AnalyticsAndExports1795722417938 implements MigrationInterface {
  name = 'AnalyticsAndExports1795722417938';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "analytic_views" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "name" character varying(255) NOT NULL,
                "description" text NOT NULL DEFAULT '',
                "query" jsonb NOT NULL DEFAULT '{}',
                "query_dict" jsonb NOT NULL DEFAULT '{}',
                CONSTRAINT "PK_55e1fad4f4a2cdcf01d3515f933" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_analytic_views_workspace" ON "analytic_views" ("workspace_id")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE TABLE "exporters" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "name" character varying(255),
                "type" character varying(50) NOT NULL DEFAULT 'issue_exports',
                "workspace_id" uuid NOT NULL,
                "project" uuid array,
                "provider" character varying(50) NOT NULL,
                "status" character varying(50) NOT NULL DEFAULT 'queued',
                "reason" text NOT NULL DEFAULT '',
                "key" text NOT NULL DEFAULT '',
                "url" character varying(800),
                "token" character varying(255) NOT NULL,
                "initiated_by_id" uuid NOT NULL,
                "filters" jsonb,
                CONSTRAINT "PK_9ad8c4949ebeacd38ae61b9b6fd" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "ux_exporters_token" ON "exporters" ("token")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_exporters_workspace_created" ON "exporters" ("workspace_id", "created_at")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            ALTER TABLE "analytic_views"
            ADD CONSTRAINT "FK_556f8f8e1752b9002ff07285ed1" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "exporters"
            ADD CONSTRAINT "FK_b25115c12da41c65f24e7817089" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "exporters"
            ADD CONSTRAINT "FK_262167e6ed5f61ea73e775ff04d" FOREIGN KEY ("initiated_by_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "exporters" DROP CONSTRAINT "FK_262167e6ed5f61ea73e775ff04d"
        `);
    await queryRunner.query(`
            ALTER TABLE "exporters" DROP CONSTRAINT "FK_b25115c12da41c65f24e7817089"
        `);
    await queryRunner.query(`
            ALTER TABLE "analytic_views" DROP CONSTRAINT "FK_556f8f8e1752b9002ff07285ed1"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_exporters_workspace_created"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ux_exporters_token"
        `);
    await queryRunner.query(`
            DROP TABLE "exporters"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_analytic_views_workspace"
        `);
    await queryRunner.query(`
            DROP TABLE "analytic_views"
        `);
  }
}
