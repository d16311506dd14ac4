import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddModuleLinks1795713203176 implements MigrationInterface {
  name = 'AddModuleLinks1795713203176';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "module_links" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid NOT NULL,
                "module_id" uuid NOT NULL,
                "title" character varying(255),
                "url" text NOT NULL,
                "metadata" jsonb NOT NULL DEFAULT '{}',
                CONSTRAINT "PK_7184c47120183d3ce89a70d50c5" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_module_links_module_created" ON "module_links" ("module_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_module_links_url_live" ON "module_links" ("module_id", "url")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            ALTER TABLE "module_links"
            ADD CONSTRAINT "FK_7a1858287843da60c17572ddb96" FOREIGN KEY ("module_id") REFERENCES "modules"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "module_links" DROP CONSTRAINT "FK_7a1858287843da60c17572ddb96"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_module_links_url_live"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_module_links_module_created"
        `);
    await queryRunner.query(`
            DROP TABLE "module_links"
        `);
  }
}
