import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddIntake1795272087832 implements MigrationInterface {
  name = 'AddIntake1795272087832';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "intakes" (
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
                "is_default" boolean NOT NULL DEFAULT true,
                CONSTRAINT "PK_a90d2ecf82eb04f663a52d34fef" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_intakes_project_live" ON "intakes" ("project_id")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE TABLE "intake_issues" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid NOT NULL,
                "intake_id" uuid NOT NULL,
                "issue_id" uuid NOT NULL,
                "status" smallint NOT NULL DEFAULT '-2',
                "snoozed_till" TIMESTAMP WITH TIME ZONE,
                "duplicate_to_id" uuid,
                "source" character varying(255) DEFAULT 'IN_APP',
                "source_email" text,
                "external_source" character varying(255),
                "external_id" character varying(255),
                "extra" jsonb NOT NULL DEFAULT '{}',
                CONSTRAINT "PK_4e903b0bd806bf2ccb3fe04117b" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_intake_issues_project_created" ON "intake_issues" ("project_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_intake_issues_issue_live" ON "intake_issues" ("issue_id")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            ALTER TABLE "intakes"
            ADD CONSTRAINT "FK_03c3a3d5b16e909aaf90606ed16" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "intake_issues"
            ADD CONSTRAINT "FK_6d4b801a5ddca32ea20a08e2472" FOREIGN KEY ("intake_id") REFERENCES "intakes"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "intake_issues"
            ADD CONSTRAINT "FK_65a5faf864d712a8cdc0285d410" FOREIGN KEY ("issue_id") REFERENCES "issues"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "intake_issues" DROP CONSTRAINT "FK_65a5faf864d712a8cdc0285d410"
        `);
    await queryRunner.query(`
            ALTER TABLE "intake_issues" DROP CONSTRAINT "FK_6d4b801a5ddca32ea20a08e2472"
        `);
    await queryRunner.query(`
            ALTER TABLE "intakes" DROP CONSTRAINT "FK_03c3a3d5b16e909aaf90606ed16"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_intake_issues_issue_live"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_intake_issues_project_created"
        `);
    await queryRunner.query(`
            DROP TABLE "intake_issues"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_intakes_project_live"
        `);
    await queryRunner.query(`
            DROP TABLE "intakes"
        `);
  }
}
