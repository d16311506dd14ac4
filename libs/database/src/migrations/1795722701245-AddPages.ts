import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddPages1795722701245 implements MigrationInterface {
  name = 'AddPages1795722701245';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "pages" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "name" text NOT NULL DEFAULT '',
                "description" jsonb NOT NULL DEFAULT '{}',
                "description_binary" bytea,
                "description_html" text NOT NULL DEFAULT '<p></p>',
                "description_stripped" text,
                "owned_by_id" uuid NOT NULL,
                "access" smallint NOT NULL DEFAULT '0',
                "color" character varying(255) NOT NULL DEFAULT '',
                "parent_id" uuid,
                "archived_at" date,
                "is_locked" boolean NOT NULL DEFAULT false,
                "view_props" jsonb NOT NULL DEFAULT '{"full_width": false}',
                "logo_props" jsonb NOT NULL DEFAULT '{}',
                "is_global" boolean NOT NULL DEFAULT false,
                CONSTRAINT "PK_8f21ed625aa34c8391d636b7d3b" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_pages_parent" ON "pages" ("parent_id")
            WHERE "deleted_at" IS NULL
                AND "parent_id" IS NOT NULL
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_pages_workspace" ON "pages" ("workspace_id")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE TABLE "project_pages" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid NOT NULL,
                "page_id" uuid NOT NULL,
                CONSTRAINT "PK_e8b1d31373a84912cbee2d7e253" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_project_pages_page" ON "project_pages" ("page_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_project_pages_project_page_live" ON "project_pages" ("project_id", "page_id")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE TABLE "page_labels" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "page_id" uuid NOT NULL,
                "label_id" uuid NOT NULL,
                CONSTRAINT "PK_1aa5c3d71483178cccaf1e11222" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_page_labels_page_label" ON "page_labels" ("page_id", "label_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "page_versions" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "page_id" uuid NOT NULL,
                "last_saved_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "owned_by_id" uuid NOT NULL,
                "description_binary" bytea,
                "description_html" text NOT NULL DEFAULT '<p></p>',
                "description_stripped" text,
                "description_json" jsonb NOT NULL DEFAULT '{}',
                CONSTRAINT "PK_2300687d4f12928dd6cf97c7605" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_page_versions_page_saved" ON "page_versions" ("page_id", "last_saved_at")
        `);
    await queryRunner.query(`
            ALTER TABLE "pages"
            ADD CONSTRAINT "FK_e81517e2f307170573c9be6f581" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "pages"
            ADD CONSTRAINT "FK_3d370b75c4b7b69fbb104bf87dd" FOREIGN KEY ("owned_by_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "pages"
            ADD CONSTRAINT "FK_65fc17f66b9d5e426eaf942dc86" FOREIGN KEY ("parent_id") REFERENCES "pages"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "project_pages"
            ADD CONSTRAINT "FK_dfdb57b3f2cc7c62fcd674dd8fc" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "project_pages"
            ADD CONSTRAINT "FK_8d2cb6602f81090c292992ff6de" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "project_pages"
            ADD CONSTRAINT "FK_d5bd7e17057b43c19bdc89272cb" FOREIGN KEY ("page_id") REFERENCES "pages"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "page_labels"
            ADD CONSTRAINT "FK_b0c2f9016d65d24064e20577dcc" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "page_labels"
            ADD CONSTRAINT "FK_cce4b225f0e2ee5733095d634c2" FOREIGN KEY ("page_id") REFERENCES "pages"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "page_labels"
            ADD CONSTRAINT "FK_d9b15b5dea0f9754d814cdee724" FOREIGN KEY ("label_id") REFERENCES "labels"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "page_versions"
            ADD CONSTRAINT "FK_e765368ba75335285acdf756306" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "page_versions"
            ADD CONSTRAINT "FK_e0797ec63e135341486d20ab68b" FOREIGN KEY ("page_id") REFERENCES "pages"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "page_versions"
            ADD CONSTRAINT "FK_65d14cc615a7ae302f0c9815c83" FOREIGN KEY ("owned_by_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "page_versions" DROP CONSTRAINT "FK_65d14cc615a7ae302f0c9815c83"
        `);
    await queryRunner.query(`
            ALTER TABLE "page_versions" DROP CONSTRAINT "FK_e0797ec63e135341486d20ab68b"
        `);
    await queryRunner.query(`
            ALTER TABLE "page_versions" DROP CONSTRAINT "FK_e765368ba75335285acdf756306"
        `);
    await queryRunner.query(`
            ALTER TABLE "page_labels" DROP CONSTRAINT "FK_d9b15b5dea0f9754d814cdee724"
        `);
    await queryRunner.query(`
            ALTER TABLE "page_labels" DROP CONSTRAINT "FK_cce4b225f0e2ee5733095d634c2"
        `);
    await queryRunner.query(`
            ALTER TABLE "page_labels" DROP CONSTRAINT "FK_b0c2f9016d65d24064e20577dcc"
        `);
    await queryRunner.query(`
            ALTER TABLE "project_pages" DROP CONSTRAINT "FK_d5bd7e17057b43c19bdc89272cb"
        `);
    await queryRunner.query(`
            ALTER TABLE "project_pages" DROP CONSTRAINT "FK_8d2cb6602f81090c292992ff6de"
        `);
    await queryRunner.query(`
            ALTER TABLE "project_pages" DROP CONSTRAINT "FK_dfdb57b3f2cc7c62fcd674dd8fc"
        `);
    await queryRunner.query(`
            ALTER TABLE "pages" DROP CONSTRAINT "FK_65fc17f66b9d5e426eaf942dc86"
        `);
    await queryRunner.query(`
            ALTER TABLE "pages" DROP CONSTRAINT "FK_3d370b75c4b7b69fbb104bf87dd"
        `);
    await queryRunner.query(`
            ALTER TABLE "pages" DROP CONSTRAINT "FK_e81517e2f307170573c9be6f581"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_page_versions_page_saved"
        `);
    await queryRunner.query(`
            DROP TABLE "page_versions"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_page_labels_page_label"
        `);
    await queryRunner.query(`
            DROP TABLE "page_labels"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_project_pages_project_page_live"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_project_pages_page"
        `);
    await queryRunner.query(`
            DROP TABLE "project_pages"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_pages_workspace"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_pages_parent"
        `);
    await queryRunner.query(`
            DROP TABLE "pages"
        `);
  }
}
