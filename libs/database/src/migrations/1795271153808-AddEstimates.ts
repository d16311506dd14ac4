import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddEstimates1795271153808 implements MigrationInterface {
  name = 'AddEstimates1795271153808';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "estimates" (
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
                "type" character varying(20) NOT NULL DEFAULT 'categories',
                "last_used" boolean NOT NULL DEFAULT false,
                "external_source" character varying(255),
                "external_id" character varying(255),
                CONSTRAINT "PK_447af75b2f6025adf7f80703810" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_estimates_project_live" ON "estimates" ("project_id")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE TABLE "estimate_points" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid NOT NULL,
                "estimate_id" uuid NOT NULL,
                "key" integer NOT NULL,
                "value" character varying(20) NOT NULL,
                "description" text NOT NULL DEFAULT '',
                "external_source" character varying(255),
                "external_id" character varying(255),
                CONSTRAINT "PK_af783b2f9d7261bbc74bf4b076e" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_estimate_points_key_live" ON "estimate_points" ("estimate_id", "key")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            ALTER TABLE "estimates"
            ADD CONSTRAINT "FK_45b72c8647743f381692bcd7ce9" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "estimate_points"
            ADD CONSTRAINT "FK_33eaad941bcac8eea0682cb5875" FOREIGN KEY ("estimate_id") REFERENCES "estimates"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "estimate_points" DROP CONSTRAINT "FK_33eaad941bcac8eea0682cb5875"
        `);
    await queryRunner.query(`
            ALTER TABLE "estimates" DROP CONSTRAINT "FK_45b72c8647743f381692bcd7ce9"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_estimate_points_key_live"
        `);
    await queryRunner.query(`
            DROP TABLE "estimate_points"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_estimates_project_live"
        `);
    await queryRunner.query(`
            DROP TABLE "estimates"
        `);
  }
}
