import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddFileAssets1795274229632 implements MigrationInterface {
  name = 'AddFileAssets1795274229632';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "file_assets" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid,
                "issue_id" uuid,
                "attributes" jsonb NOT NULL,
                "asset" character varying(800) NOT NULL,
                "entity_type" character varying(40) NOT NULL,
                "entity_identifier" character varying(255),
                "is_deleted" boolean NOT NULL DEFAULT false,
                "is_archived" boolean NOT NULL DEFAULT false,
                "is_uploaded" boolean NOT NULL DEFAULT false,
                "size" double precision NOT NULL DEFAULT '0',
                "storage_metadata" jsonb,
                "external_source" character varying(255),
                "external_id" character varying(255),
                "user_id" uuid,
                CONSTRAINT "PK_6e7152202cfe8068f9b35048896" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_file_assets_issue" ON "file_assets" ("issue_id")
        `);
    await queryRunner.query(`
            ALTER TABLE "file_assets"
            ADD CONSTRAINT "FK_ab77a0f52b0bef2d545c4441e81" FOREIGN KEY ("issue_id") REFERENCES "issues"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "file_assets" DROP CONSTRAINT "FK_ab77a0f52b0bef2d545c4441e81"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_file_assets_issue"
        `);
    await queryRunner.query(`
            DROP TABLE "file_assets"
        `);
  }
}
