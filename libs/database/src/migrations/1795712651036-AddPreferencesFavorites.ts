import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddPreferencesFavorites1795712651036 implements MigrationInterface {
  name = 'AddPreferencesFavorites1795712651036';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "user_favorites" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid,
                "user_id" uuid NOT NULL,
                "entity_type" character varying(100) NOT NULL,
                "entity_identifier" uuid,
                "name" character varying(255),
                "is_folder" boolean NOT NULL DEFAULT false,
                "sequence" double precision NOT NULL DEFAULT '65535',
                "parent_id" uuid,
                CONSTRAINT "PK_6c472a19a7423cfbbf6b7c75939" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_user_favorites_workspace_user" ON "user_favorites" ("workspace_id", "user_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_user_favorites_user_entity_live" ON "user_favorites" ("user_id", "entity_type", "entity_identifier")
            WHERE "deleted_at" IS NULL
                AND "entity_identifier" IS NOT NULL
        `);
    await queryRunner.query(`
            CREATE TABLE "workspace_home_preferences" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "user_id" uuid NOT NULL,
                "key" character varying(255) NOT NULL,
                "is_enabled" boolean NOT NULL DEFAULT true,
                "config" jsonb NOT NULL DEFAULT '{}',
                "sort_order" double precision NOT NULL DEFAULT '65535',
                CONSTRAINT "PK_b5f869b50f99f79af0d7f40b344" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_workspace_home_preferences_live" ON "workspace_home_preferences" ("workspace_id", "user_id", "key")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE TABLE "workspace_user_preferences" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "user_id" uuid NOT NULL,
                "key" character varying(255) NOT NULL,
                "is_pinned" boolean NOT NULL DEFAULT false,
                "sort_order" double precision NOT NULL DEFAULT '65535',
                CONSTRAINT "PK_975d0daf5cd7d9ce8aec3997ba4" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_workspace_user_preferences_live" ON "workspace_user_preferences" ("workspace_id", "user_id", "key")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE TABLE "workspace_user_links" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid,
                "owner_id" uuid NOT NULL,
                "title" character varying(255),
                "url" text NOT NULL,
                "metadata" jsonb NOT NULL DEFAULT '{}',
                CONSTRAINT "PK_2fa359168aeb098a2dd2dbf610d" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_workspace_user_links_workspace_owner" ON "workspace_user_links" ("workspace_id", "owner_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE TABLE "user_recent_visits" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid,
                "user_id" uuid NOT NULL,
                "entity_name" character varying(30) NOT NULL,
                "entity_identifier" uuid NOT NULL,
                "visited_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_378e3995a57e9eea484e15a9abb" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_user_recent_visits_entity_live" ON "user_recent_visits" (
                "workspace_id",
                "user_id",
                "entity_name",
                "entity_identifier"
            )
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE TABLE "workspace_user_properties" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "user_id" uuid NOT NULL,
                "filters" jsonb NOT NULL DEFAULT '{}',
                "display_filters" jsonb NOT NULL DEFAULT '{}',
                "display_properties" jsonb NOT NULL DEFAULT '{}',
                CONSTRAINT "PK_7709d4e05fc3f707da41b922fcb" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_workspace_user_properties_live" ON "workspace_user_properties" ("workspace_id", "user_id")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE TABLE "issue_user_properties" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "user_id" uuid NOT NULL,
                "filters" jsonb NOT NULL DEFAULT '{}',
                "display_filters" jsonb NOT NULL DEFAULT '{}',
                "display_properties" jsonb NOT NULL DEFAULT '{}',
                "project_id" uuid NOT NULL,
                CONSTRAINT "PK_36eece183390dbf019566523166" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_issue_user_properties_live" ON "issue_user_properties" ("project_id", "user_id")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE TABLE "cycle_user_properties" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "user_id" uuid NOT NULL,
                "filters" jsonb NOT NULL DEFAULT '{}',
                "display_filters" jsonb NOT NULL DEFAULT '{}',
                "display_properties" jsonb NOT NULL DEFAULT '{}',
                "project_id" uuid NOT NULL,
                "cycle_id" uuid NOT NULL,
                CONSTRAINT "PK_1a5b8fa490a743202495691baf1" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_cycle_user_properties_live" ON "cycle_user_properties" ("cycle_id", "user_id")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE TABLE "module_user_properties" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "user_id" uuid NOT NULL,
                "filters" jsonb NOT NULL DEFAULT '{}',
                "display_filters" jsonb NOT NULL DEFAULT '{}',
                "display_properties" jsonb NOT NULL DEFAULT '{}',
                "project_id" uuid NOT NULL,
                "module_id" uuid NOT NULL,
                CONSTRAINT "PK_5556ab8ff1758b5657d3a311182" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_module_user_properties_live" ON "module_user_properties" ("module_id", "user_id")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            ALTER TABLE "user_favorites"
            ADD CONSTRAINT "FK_91219b372fbadeb7bd4f3fdd84e" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "user_favorites"
            ADD CONSTRAINT "FK_673c07dc7389e685b916156dd7b" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "user_favorites"
            ADD CONSTRAINT "FK_5238ce0a21cc77dc16c8efe3d36" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "user_favorites"
            ADD CONSTRAINT "FK_c66836df6423cbd8ff2420d3304" FOREIGN KEY ("parent_id") REFERENCES "user_favorites"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_home_preferences"
            ADD CONSTRAINT "FK_900782676aeb06c924924688970" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_home_preferences"
            ADD CONSTRAINT "FK_fb10a3e25dd954b73bf200d7353" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_user_preferences"
            ADD CONSTRAINT "FK_829588e03d86afb049b34e198c6" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_user_preferences"
            ADD CONSTRAINT "FK_eba9b30b1e96ff53967a6f4fd98" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_user_links"
            ADD CONSTRAINT "FK_0e08e2bba66c23db6e8685fa3fc" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_user_links"
            ADD CONSTRAINT "FK_057821fc989ae98560fe6b48616" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "user_recent_visits"
            ADD CONSTRAINT "FK_c23e1101b4dfcb706e0130d34eb" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "user_recent_visits"
            ADD CONSTRAINT "FK_5648f2911a270b326fc0a5d151d" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_user_properties"
            ADD CONSTRAINT "FK_b9c2a336e323907ba31de13aaca" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_user_properties"
            ADD CONSTRAINT "FK_8587e735729506cd5f42c2d12ac" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_user_properties"
            ADD CONSTRAINT "FK_c19ec13091510fa96188b27307a" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_user_properties"
            ADD CONSTRAINT "FK_34a3aeeab0f7931672fc238083e" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_user_properties"
            ADD CONSTRAINT "FK_3e877966a6d449bfed822fde8ff" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "cycle_user_properties"
            ADD CONSTRAINT "FK_80a4f63403f77bb12a4565fa216" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "cycle_user_properties"
            ADD CONSTRAINT "FK_3ac3b77c0ab42a5f8b3ab8c5b34" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "cycle_user_properties"
            ADD CONSTRAINT "FK_0a082e0996cc14e13d2b6ef786b" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "cycle_user_properties"
            ADD CONSTRAINT "FK_03588a5a8345c4bd8c240ab8c5b" FOREIGN KEY ("cycle_id") REFERENCES "cycles"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "module_user_properties"
            ADD CONSTRAINT "FK_19789c2cb74956caec5f6dbc150" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "module_user_properties"
            ADD CONSTRAINT "FK_7bd17f37dad6d2d593cc53d1dfb" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "module_user_properties"
            ADD CONSTRAINT "FK_a273753e6ec679f90bfd04131db" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "module_user_properties"
            ADD CONSTRAINT "FK_cc8a61ec9b454fcffd9238f67d2" FOREIGN KEY ("module_id") REFERENCES "modules"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "module_user_properties" DROP CONSTRAINT "FK_cc8a61ec9b454fcffd9238f67d2"
        `);
    await queryRunner.query(`
            ALTER TABLE "module_user_properties" DROP CONSTRAINT "FK_a273753e6ec679f90bfd04131db"
        `);
    await queryRunner.query(`
            ALTER TABLE "module_user_properties" DROP CONSTRAINT "FK_7bd17f37dad6d2d593cc53d1dfb"
        `);
    await queryRunner.query(`
            ALTER TABLE "module_user_properties" DROP CONSTRAINT "FK_19789c2cb74956caec5f6dbc150"
        `);
    await queryRunner.query(`
            ALTER TABLE "cycle_user_properties" DROP CONSTRAINT "FK_03588a5a8345c4bd8c240ab8c5b"
        `);
    await queryRunner.query(`
            ALTER TABLE "cycle_user_properties" DROP CONSTRAINT "FK_0a082e0996cc14e13d2b6ef786b"
        `);
    await queryRunner.query(`
            ALTER TABLE "cycle_user_properties" DROP CONSTRAINT "FK_3ac3b77c0ab42a5f8b3ab8c5b34"
        `);
    await queryRunner.query(`
            ALTER TABLE "cycle_user_properties" DROP CONSTRAINT "FK_80a4f63403f77bb12a4565fa216"
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_user_properties" DROP CONSTRAINT "FK_3e877966a6d449bfed822fde8ff"
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_user_properties" DROP CONSTRAINT "FK_34a3aeeab0f7931672fc238083e"
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_user_properties" DROP CONSTRAINT "FK_c19ec13091510fa96188b27307a"
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_user_properties" DROP CONSTRAINT "FK_8587e735729506cd5f42c2d12ac"
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_user_properties" DROP CONSTRAINT "FK_b9c2a336e323907ba31de13aaca"
        `);
    await queryRunner.query(`
            ALTER TABLE "user_recent_visits" DROP CONSTRAINT "FK_5648f2911a270b326fc0a5d151d"
        `);
    await queryRunner.query(`
            ALTER TABLE "user_recent_visits" DROP CONSTRAINT "FK_c23e1101b4dfcb706e0130d34eb"
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_user_links" DROP CONSTRAINT "FK_057821fc989ae98560fe6b48616"
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_user_links" DROP CONSTRAINT "FK_0e08e2bba66c23db6e8685fa3fc"
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_user_preferences" DROP CONSTRAINT "FK_eba9b30b1e96ff53967a6f4fd98"
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_user_preferences" DROP CONSTRAINT "FK_829588e03d86afb049b34e198c6"
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_home_preferences" DROP CONSTRAINT "FK_fb10a3e25dd954b73bf200d7353"
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_home_preferences" DROP CONSTRAINT "FK_900782676aeb06c924924688970"
        `);
    await queryRunner.query(`
            ALTER TABLE "user_favorites" DROP CONSTRAINT "FK_c66836df6423cbd8ff2420d3304"
        `);
    await queryRunner.query(`
            ALTER TABLE "user_favorites" DROP CONSTRAINT "FK_5238ce0a21cc77dc16c8efe3d36"
        `);
    await queryRunner.query(`
            ALTER TABLE "user_favorites" DROP CONSTRAINT "FK_673c07dc7389e685b916156dd7b"
        `);
    await queryRunner.query(`
            ALTER TABLE "user_favorites" DROP CONSTRAINT "FK_91219b372fbadeb7bd4f3fdd84e"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_module_user_properties_live"
        `);
    await queryRunner.query(`
            DROP TABLE "module_user_properties"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_cycle_user_properties_live"
        `);
    await queryRunner.query(`
            DROP TABLE "cycle_user_properties"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_issue_user_properties_live"
        `);
    await queryRunner.query(`
            DROP TABLE "issue_user_properties"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_workspace_user_properties_live"
        `);
    await queryRunner.query(`
            DROP TABLE "workspace_user_properties"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_user_recent_visits_entity_live"
        `);
    await queryRunner.query(`
            DROP TABLE "user_recent_visits"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_workspace_user_links_workspace_owner"
        `);
    await queryRunner.query(`
            DROP TABLE "workspace_user_links"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_workspace_user_preferences_live"
        `);
    await queryRunner.query(`
            DROP TABLE "workspace_user_preferences"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_workspace_home_preferences_live"
        `);
    await queryRunner.query(`
            DROP TABLE "workspace_home_preferences"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_user_favorites_user_entity_live"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_user_favorites_workspace_user"
        `);
    await queryRunner.query(`
            DROP TABLE "user_favorites"
        `);
  }
}
