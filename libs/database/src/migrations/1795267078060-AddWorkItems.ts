import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddWorkItems1795267078060 implements MigrationInterface {
  name = 'AddWorkItems1795267078060';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "labels" (
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
                "color" character varying(255) NOT NULL DEFAULT '',
                "parent_id" uuid,
                "sort_order" double precision NOT NULL DEFAULT '65535',
                "external_source" character varying(255),
                "external_id" character varying(255),
                CONSTRAINT "PK_c0c4e97f76f1f3a268c7a70b925" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_labels_parent" ON "labels" ("parent_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_labels_external_live" ON "labels" ("project_id", "external_source", "external_id")
            WHERE "deleted_at" IS NULL
                AND "external_id" IS NOT NULL
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_labels_name_live" ON "labels" ("project_id", "name")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE TABLE "issues" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid NOT NULL,
                "name" character varying(255) NOT NULL,
                "description_html" text NOT NULL DEFAULT '<p></p>',
                "description_stripped" text NOT NULL DEFAULT '',
                "priority" character varying(30) NOT NULL DEFAULT 'none',
                "state_id" uuid,
                "parent_id" uuid,
                "point" smallint,
                "estimate_point_id" uuid,
                "start_date" date,
                "target_date" date,
                "sequence_id" integer NOT NULL,
                "sort_order" double precision NOT NULL DEFAULT '65535',
                "completed_at" TIMESTAMP WITH TIME ZONE,
                "archived_at" date,
                "is_draft" boolean NOT NULL DEFAULT false,
                "external_source" character varying(255),
                "external_id" character varying(255),
                "type_id" uuid,
                CONSTRAINT "PK_9d8ecbbeff46229c700f0449257" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_issues_state" ON "issues" ("state_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_issues_parent" ON "issues" ("parent_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_issues_project_created" ON "issues" ("project_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_issues_external_live" ON "issues" ("project_id", "external_source", "external_id")
            WHERE "deleted_at" IS NULL
                AND "external_id" IS NOT NULL
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_issues_project_sequence" ON "issues" ("project_id", "sequence_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "project_issue_counters" (
                "project_id" uuid NOT NULL,
                "last_sequence" integer NOT NULL DEFAULT '0',
                CONSTRAINT "PK_21ef48bdb80ab70345047008d1f" PRIMARY KEY ("project_id")
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "issue_assignees" (
                "issue_id" uuid NOT NULL,
                "assignee_id" uuid NOT NULL,
                CONSTRAINT "PK_5bca0365be523ea22971e774e5e" PRIMARY KEY ("issue_id", "assignee_id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_issue_assignees_assignee" ON "issue_assignees" ("assignee_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "issue_labels" (
                "issue_id" uuid NOT NULL,
                "label_id" uuid NOT NULL,
                CONSTRAINT "PK_1ac0a33ade1abb32c03516fa496" PRIMARY KEY ("issue_id", "label_id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_issue_labels_label" ON "issue_labels" ("label_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "issue_comments" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid NOT NULL,
                "issue_id" uuid NOT NULL,
                "comment_html" text NOT NULL DEFAULT '<p></p>',
                "comment_stripped" text NOT NULL DEFAULT '',
                "comment_json" jsonb NOT NULL DEFAULT '{}',
                "attachments" jsonb NOT NULL DEFAULT '[]',
                "access" character varying(20) NOT NULL DEFAULT 'INTERNAL',
                "external_source" character varying(255),
                "external_id" character varying(255),
                "edited_at" TIMESTAMP WITH TIME ZONE,
                "actor_id" uuid,
                CONSTRAINT "PK_c650a2d6817045a0c8ce74f09f4" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_issue_comments_external_live" ON "issue_comments" ("project_id", "external_source", "external_id")
            WHERE "deleted_at" IS NULL
                AND "external_id" IS NOT NULL
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_issue_comments_issue_created" ON "issue_comments" ("issue_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE TABLE "issue_links" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid NOT NULL,
                "issue_id" uuid NOT NULL,
                "title" character varying(255),
                "url" text NOT NULL,
                "metadata" jsonb NOT NULL DEFAULT '{}',
                CONSTRAINT "PK_92c961bad3a83cebd040a61d87f" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_issue_links_issue_created" ON "issue_links" ("issue_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_issue_links_url_live" ON "issue_links" ("issue_id", "url")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE TABLE "issue_activities" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid NOT NULL,
                "issue_id" uuid,
                "verb" character varying(255) NOT NULL DEFAULT 'created',
                "field" character varying(255),
                "old_value" text,
                "new_value" text,
                "comment" text NOT NULL DEFAULT '',
                "attachments" jsonb NOT NULL DEFAULT '[]',
                "issue_comment_id" uuid,
                "actor_id" uuid,
                "old_identifier" uuid,
                "new_identifier" uuid,
                "epoch" double precision,
                CONSTRAINT "PK_533a92f2c4c2527b6793eb803bb" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_issue_activities_issue_created" ON "issue_activities" ("issue_id", "created_at")
        `);
    await queryRunner.query(`
            ALTER TABLE "labels"
            ADD CONSTRAINT "FK_68b0da461f6765824f6db642f12" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "labels"
            ADD CONSTRAINT "FK_a3c795959f42950ae3e38665cb3" FOREIGN KEY ("parent_id") REFERENCES "labels"("id") ON DELETE
            SET NULL ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "issues"
            ADD CONSTRAINT "FK_11f35e8296e10c229e7b68c68d4" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "issues"
            ADD CONSTRAINT "FK_ce7d55a3041e0e318e9a5e84473" FOREIGN KEY ("state_id") REFERENCES "states"("id") ON DELETE
            SET NULL ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "issues"
            ADD CONSTRAINT "FK_98fad9e9dacbfd3f12a9628578e" FOREIGN KEY ("parent_id") REFERENCES "issues"("id") ON DELETE
            SET NULL ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "project_issue_counters"
            ADD CONSTRAINT "FK_21ef48bdb80ab70345047008d1f" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_assignees"
            ADD CONSTRAINT "FK_f9a83e6965b71c01d5fb6b21ad7" FOREIGN KEY ("issue_id") REFERENCES "issues"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_labels"
            ADD CONSTRAINT "FK_68c7892926826f61d6a4a6f564d" FOREIGN KEY ("issue_id") REFERENCES "issues"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_comments"
            ADD CONSTRAINT "FK_5031938a085cb5bea6ed4eaeb53" FOREIGN KEY ("issue_id") REFERENCES "issues"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_links"
            ADD CONSTRAINT "FK_a47c96f4882d1770ccf1b6397e9" FOREIGN KEY ("issue_id") REFERENCES "issues"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "issue_links" DROP CONSTRAINT "FK_a47c96f4882d1770ccf1b6397e9"
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_comments" DROP CONSTRAINT "FK_5031938a085cb5bea6ed4eaeb53"
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_labels" DROP CONSTRAINT "FK_68c7892926826f61d6a4a6f564d"
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_assignees" DROP CONSTRAINT "FK_f9a83e6965b71c01d5fb6b21ad7"
        `);
    await queryRunner.query(`
            ALTER TABLE "project_issue_counters" DROP CONSTRAINT "FK_21ef48bdb80ab70345047008d1f"
        `);
    await queryRunner.query(`
            ALTER TABLE "issues" DROP CONSTRAINT "FK_98fad9e9dacbfd3f12a9628578e"
        `);
    await queryRunner.query(`
            ALTER TABLE "issues" DROP CONSTRAINT "FK_ce7d55a3041e0e318e9a5e84473"
        `);
    await queryRunner.query(`
            ALTER TABLE "issues" DROP CONSTRAINT "FK_11f35e8296e10c229e7b68c68d4"
        `);
    await queryRunner.query(`
            ALTER TABLE "labels" DROP CONSTRAINT "FK_a3c795959f42950ae3e38665cb3"
        `);
    await queryRunner.query(`
            ALTER TABLE "labels" DROP CONSTRAINT "FK_68b0da461f6765824f6db642f12"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_issue_activities_issue_created"
        `);
    await queryRunner.query(`
            DROP TABLE "issue_activities"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_issue_links_url_live"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_issue_links_issue_created"
        `);
    await queryRunner.query(`
            DROP TABLE "issue_links"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_issue_comments_issue_created"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_issue_comments_external_live"
        `);
    await queryRunner.query(`
            DROP TABLE "issue_comments"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_issue_labels_label"
        `);
    await queryRunner.query(`
            DROP TABLE "issue_labels"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_issue_assignees_assignee"
        `);
    await queryRunner.query(`
            DROP TABLE "issue_assignees"
        `);
    await queryRunner.query(`
            DROP TABLE "project_issue_counters"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_issues_project_sequence"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_issues_external_live"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_issues_project_created"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_issues_parent"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_issues_state"
        `);
    await queryRunner.query(`
            DROP TABLE "issues"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_labels_name_live"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_labels_external_live"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_labels_parent"
        `);
    await queryRunner.query(`
            DROP TABLE "labels"
        `);
  }
}
