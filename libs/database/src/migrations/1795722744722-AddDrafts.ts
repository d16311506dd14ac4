import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddDrafts1795722744722 implements MigrationInterface {
  name = 'AddDrafts1795722744722';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "draft_issues" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid,
                "parent_id" uuid,
                "state_id" uuid,
                "estimate_point_id" uuid,
                "name" character varying(255),
                "description" jsonb NOT NULL DEFAULT '{}',
                "description_html" text NOT NULL DEFAULT '<p></p>',
                "description_stripped" text,
                "priority" character varying(30) NOT NULL DEFAULT 'none',
                "start_date" date,
                "target_date" date,
                "sort_order" double precision NOT NULL DEFAULT '65535',
                "completed_at" TIMESTAMP WITH TIME ZONE,
                "external_source" character varying(255),
                "external_id" character varying(255),
                "type_id" uuid,
                CONSTRAINT "PK_9cba1b92e938280848b28e2ddf0" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_draft_issues_project" ON "draft_issues" ("project_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_draft_issues_workspace_creator_created" ON "draft_issues" ("workspace_id", "created_by_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE TABLE "draft_issue_assignees" (
                "draft_issue_id" uuid NOT NULL,
                "assignee_id" uuid NOT NULL,
                CONSTRAINT "PK_28fb579553c9223c583f917cb9f" PRIMARY KEY ("draft_issue_id", "assignee_id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_draft_issue_assignees_assignee" ON "draft_issue_assignees" ("assignee_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "draft_issue_cycles" (
                "draft_issue_id" uuid NOT NULL,
                "cycle_id" uuid NOT NULL,
                CONSTRAINT "PK_9595149a6e7e75d6e474c0bde3b" PRIMARY KEY ("draft_issue_id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_draft_issue_cycles_cycle" ON "draft_issue_cycles" ("cycle_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "draft_issue_labels" (
                "draft_issue_id" uuid NOT NULL,
                "label_id" uuid NOT NULL,
                CONSTRAINT "PK_95456dff0cd773c9f392bc40329" PRIMARY KEY ("draft_issue_id", "label_id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_draft_issue_labels_label" ON "draft_issue_labels" ("label_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "draft_issue_modules" (
                "draft_issue_id" uuid NOT NULL,
                "module_id" uuid NOT NULL,
                CONSTRAINT "PK_b687e933d7239e79f3c56b5a2f1" PRIMARY KEY ("draft_issue_id", "module_id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_draft_issue_modules_module" ON "draft_issue_modules" ("module_id")
        `);
    await queryRunner.query(`
            ALTER TABLE "draft_issues"
            ADD CONSTRAINT "FK_91fd8e4ea9c9914903c7d11b06b" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "draft_issues"
            ADD CONSTRAINT "FK_6d7d0391fa4e1632d9f29eb03b0" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "draft_issues"
            ADD CONSTRAINT "FK_e096ced5068e124ef86ca633096" FOREIGN KEY ("parent_id") REFERENCES "issues"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "draft_issues"
            ADD CONSTRAINT "FK_8c4a2177b278f5fd567343c4151" FOREIGN KEY ("state_id") REFERENCES "states"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "draft_issue_assignees"
            ADD CONSTRAINT "FK_6729c324ebedd550ca42cfbd6f3" FOREIGN KEY ("draft_issue_id") REFERENCES "draft_issues"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "draft_issue_assignees"
            ADD CONSTRAINT "FK_467adcaaa7feb6bd284ab31636f" FOREIGN KEY ("assignee_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "draft_issue_cycles"
            ADD CONSTRAINT "FK_9595149a6e7e75d6e474c0bde3b" FOREIGN KEY ("draft_issue_id") REFERENCES "draft_issues"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "draft_issue_cycles"
            ADD CONSTRAINT "FK_2f09bfff11d05755dee4a01e051" FOREIGN KEY ("cycle_id") REFERENCES "cycles"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "draft_issue_labels"
            ADD CONSTRAINT "FK_c609724c491021d89993b2a80fe" FOREIGN KEY ("draft_issue_id") REFERENCES "draft_issues"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "draft_issue_labels"
            ADD CONSTRAINT "FK_f9aaa5aa60f5afd1c3ba046ca19" FOREIGN KEY ("label_id") REFERENCES "labels"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "draft_issue_modules"
            ADD CONSTRAINT "FK_0c789ce34defebc0f2a06a50f99" FOREIGN KEY ("draft_issue_id") REFERENCES "draft_issues"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "draft_issue_modules"
            ADD CONSTRAINT "FK_dd5404d7c62fb76b03446b40508" FOREIGN KEY ("module_id") REFERENCES "modules"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "draft_issue_modules" DROP CONSTRAINT "FK_dd5404d7c62fb76b03446b40508"
        `);
    await queryRunner.query(`
            ALTER TABLE "draft_issue_modules" DROP CONSTRAINT "FK_0c789ce34defebc0f2a06a50f99"
        `);
    await queryRunner.query(`
            ALTER TABLE "draft_issue_labels" DROP CONSTRAINT "FK_f9aaa5aa60f5afd1c3ba046ca19"
        `);
    await queryRunner.query(`
            ALTER TABLE "draft_issue_labels" DROP CONSTRAINT "FK_c609724c491021d89993b2a80fe"
        `);
    await queryRunner.query(`
            ALTER TABLE "draft_issue_cycles" DROP CONSTRAINT "FK_2f09bfff11d05755dee4a01e051"
        `);
    await queryRunner.query(`
            ALTER TABLE "draft_issue_cycles" DROP CONSTRAINT "FK_9595149a6e7e75d6e474c0bde3b"
        `);
    await queryRunner.query(`
            ALTER TABLE "draft_issue_assignees" DROP CONSTRAINT "FK_467adcaaa7feb6bd284ab31636f"
        `);
    await queryRunner.query(`
            ALTER TABLE "draft_issue_assignees" DROP CONSTRAINT "FK_6729c324ebedd550ca42cfbd6f3"
        `);
    await queryRunner.query(`
            ALTER TABLE "draft_issues" DROP CONSTRAINT "FK_8c4a2177b278f5fd567343c4151"
        `);
    await queryRunner.query(`
            ALTER TABLE "draft_issues" DROP CONSTRAINT "FK_e096ced5068e124ef86ca633096"
        `);
    await queryRunner.query(`
            ALTER TABLE "draft_issues" DROP CONSTRAINT "FK_6d7d0391fa4e1632d9f29eb03b0"
        `);
    await queryRunner.query(`
            ALTER TABLE "draft_issues" DROP CONSTRAINT "FK_91fd8e4ea9c9914903c7d11b06b"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_draft_issue_modules_module"
        `);
    await queryRunner.query(`
            DROP TABLE "draft_issue_modules"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_draft_issue_labels_label"
        `);
    await queryRunner.query(`
            DROP TABLE "draft_issue_labels"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_draft_issue_cycles_cycle"
        `);
    await queryRunner.query(`
            DROP TABLE "draft_issue_cycles"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_draft_issue_assignees_assignee"
        `);
    await queryRunner.query(`
            DROP TABLE "draft_issue_assignees"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_draft_issues_workspace_creator_created"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_draft_issues_project"
        `);
    await queryRunner.query(`
            DROP TABLE "draft_issues"
        `);
  }
}
