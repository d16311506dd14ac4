import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddCyclesModules1795271074186 implements MigrationInterface {
  name = 'AddCyclesModules1795271074186';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "cycles" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid NOT NULL,
                "name" character varying(255) NOT NULL,
                "description" text NOT NULL DEFAULT '',
                "start_date" TIMESTAMP WITH TIME ZONE,
                "end_date" TIMESTAMP WITH TIME ZONE,
                "owned_by_id" uuid NOT NULL,
                "view_props" jsonb NOT NULL DEFAULT '{}',
                "progress_snapshot" jsonb NOT NULL DEFAULT '{}',
                "logo_props" jsonb NOT NULL DEFAULT '{}',
                "sort_order" double precision NOT NULL DEFAULT '65535',
                "external_source" character varying(255),
                "external_id" character varying(255),
                "archived_at" TIMESTAMP WITH TIME ZONE,
                "timezone" character varying(255) NOT NULL DEFAULT 'UTC',
                "version" integer NOT NULL DEFAULT '1',
                CONSTRAINT "PK_52e5eeb9c7c6e4ad1aed657967a" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_cycles_external_live" ON "cycles" ("project_id", "external_source", "external_id")
            WHERE "deleted_at" IS NULL
                AND "external_id" IS NOT NULL
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cycles_project_created" ON "cycles" ("project_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE TABLE "cycle_issues" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid NOT NULL,
                "cycle_id" uuid NOT NULL,
                "issue_id" uuid NOT NULL,
                CONSTRAINT "PK_87c836ebd8812a361f30ac5cebd" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cycle_issues_cycle" ON "cycle_issues" ("cycle_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_cycle_issues_issue" ON "cycle_issues" ("issue_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "modules" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid NOT NULL,
                "name" character varying(255) NOT NULL,
                "description" text NOT NULL DEFAULT '',
                "description_text" jsonb,
                "description_html" jsonb,
                "start_date" date,
                "target_date" date,
                "status" character varying(20) NOT NULL DEFAULT 'planned',
                "lead_id" uuid,
                "view_props" jsonb NOT NULL DEFAULT '{}',
                "logo_props" jsonb NOT NULL DEFAULT '{}',
                "sort_order" double precision NOT NULL DEFAULT '65535',
                "external_source" character varying(255),
                "external_id" character varying(255),
                "archived_at" TIMESTAMP WITH TIME ZONE,
                CONSTRAINT "PK_7dbefd488bd96c5bf31f0ce0c95" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_modules_external_live" ON "modules" ("project_id", "external_source", "external_id")
            WHERE "deleted_at" IS NULL
                AND "external_id" IS NOT NULL
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_modules_name_live" ON "modules" ("project_id", "name")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_modules_project_created" ON "modules" ("project_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE TABLE "module_members" (
                "module_id" uuid NOT NULL,
                "member_id" uuid NOT NULL,
                CONSTRAINT "PK_4e2e848bb381a05da0f80194939" PRIMARY KEY ("module_id", "member_id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_module_members_member" ON "module_members" ("member_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "module_issues" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid NOT NULL,
                "module_id" uuid NOT NULL,
                "issue_id" uuid NOT NULL,
                CONSTRAINT "PK_0f8fba1d912ee89cd93e9905116" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_module_issues_issue" ON "module_issues" ("issue_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_module_issues_module_issue" ON "module_issues" ("module_id", "issue_id")
        `);
    await queryRunner.query(`
            ALTER TABLE "cycles"
            ADD CONSTRAINT "FK_f606dbaeac8fdca8371b01a0ef9" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "cycle_issues"
            ADD CONSTRAINT "FK_0436252d9f64608d8eb3ee89407" FOREIGN KEY ("cycle_id") REFERENCES "cycles"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "cycle_issues"
            ADD CONSTRAINT "FK_351520da4742314ec86afd4abff" FOREIGN KEY ("issue_id") REFERENCES "issues"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "modules"
            ADD CONSTRAINT "FK_b1255aea338120fd99425b3bc1a" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "module_members"
            ADD CONSTRAINT "FK_ee30fbadda283c8f514d947bae4" FOREIGN KEY ("module_id") REFERENCES "modules"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "module_issues"
            ADD CONSTRAINT "FK_7bda80adc5ff8ab0abd7aaf5acb" FOREIGN KEY ("module_id") REFERENCES "modules"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "module_issues"
            ADD CONSTRAINT "FK_2d7e1f017f7da77d8fe8e7fe7d9" FOREIGN KEY ("issue_id") REFERENCES "issues"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "module_issues" DROP CONSTRAINT "FK_2d7e1f017f7da77d8fe8e7fe7d9"
        `);
    await queryRunner.query(`
            ALTER TABLE "module_issues" DROP CONSTRAINT "FK_7bda80adc5ff8ab0abd7aaf5acb"
        `);
    await queryRunner.query(`
            ALTER TABLE "module_members" DROP CONSTRAINT "FK_ee30fbadda283c8f514d947bae4"
        `);
    await queryRunner.query(`
            ALTER TABLE "modules" DROP CONSTRAINT "FK_b1255aea338120fd99425b3bc1a"
        `);
    await queryRunner.query(`
            ALTER TABLE "cycle_issues" DROP CONSTRAINT "FK_351520da4742314ec86afd4abff"
        `);
    await queryRunner.query(`
            ALTER TABLE "cycle_issues" DROP CONSTRAINT "FK_0436252d9f64608d8eb3ee89407"
        `);
    await queryRunner.query(`
            ALTER TABLE "cycles" DROP CONSTRAINT "FK_f606dbaeac8fdca8371b01a0ef9"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_module_issues_module_issue"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_module_issues_issue"
        `);
    await queryRunner.query(`
            DROP TABLE "module_issues"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_module_members_member"
        `);
    await queryRunner.query(`
            DROP TABLE "module_members"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_modules_project_created"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_modules_name_live"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_modules_external_live"
        `);
    await queryRunner.query(`
            DROP TABLE "modules"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_cycle_issues_issue"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_cycle_issues_cycle"
        `);
    await queryRunner.query(`
            DROP TABLE "cycle_issues"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_cycles_project_created"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_cycles_external_live"
        `);
    await queryRunner.query(`
            DROP TABLE "cycles"
        `);
  }
}
