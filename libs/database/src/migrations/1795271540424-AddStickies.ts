import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddStickies1795271540424 implements MigrationInterface {
  name = 'AddStickies1795271540424';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "stickies" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "owner_id" uuid NOT NULL,
                "name" text,
                "description" jsonb NOT NULL DEFAULT '{}',
                "description_html" text NOT NULL DEFAULT '<p></p>',
                "description_stripped" text NOT NULL DEFAULT '',
                "logo_props" jsonb NOT NULL DEFAULT '{}',
                "color" character varying(255),
                "background_color" character varying(255),
                "sort_order" double precision NOT NULL DEFAULT '65535',
                CONSTRAINT "PK_9c1c9fd0e949e35604b425fc47d" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_stickies_workspace_owner_created" ON "stickies" ("workspace_id", "owner_id", "created_at")
        `);
    await queryRunner.query(`
            ALTER TABLE "stickies"
            ADD CONSTRAINT "FK_8d7852e5e5f34dbda1398673c97" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "stickies"
            ADD CONSTRAINT "FK_f1f908b70153c0754a00a558747" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "stickies" DROP CONSTRAINT "FK_f1f908b70153c0754a00a558747"
        `);
    await queryRunner.query(`
            ALTER TABLE "stickies" DROP CONSTRAINT "FK_8d7852e5e5f34dbda1398673c97"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_stickies_workspace_owner_created"
        `);
    await queryRunner.query(`
            DROP TABLE "stickies"
        `);
  }
}
