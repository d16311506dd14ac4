import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `workspace_members.view_props` (a member's own view settings, `POST workspace-views/`; null until
 * saved) and the service token of `POST service-api-tokens/`: `api_tokens.token_sealed` (the key,
 * SecretBox-sealed) and at most one live service token per workspace. Before the unique index, any
 * older live duplicates are revoked (no route made service tokens before this migration).
 */
export class WorkspaceViewPropsServiceTokens1795734574312 implements MigrationInterface {
  name = 'WorkspaceViewPropsServiceTokens1795734574312';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "api_tokens"
            ADD "token_sealed" text
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_members"
            ADD "view_props" jsonb
        `);
    await queryRunner.query(`
            UPDATE "api_tokens" t SET "deleted_at" = now(), "is_active" = false
            WHERE t."is_service" = true AND t."deleted_at" IS NULL AND EXISTS (
                SELECT 1 FROM "api_tokens" n
                WHERE n."workspace_id" = t."workspace_id" AND n."is_service" = true AND n."deleted_at" IS NULL
                    AND (n."created_at", n."id") > (t."created_at", t."id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_api_tokens_service_live" ON "api_tokens" ("workspace_id")
            WHERE "is_service" = true
                AND "deleted_at" IS NULL
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "public"."uq_api_tokens_service_live"
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_members" DROP COLUMN "view_props"
        `);
    await queryRunner.query(`
            ALTER TABLE "api_tokens" DROP COLUMN "token_sealed"
        `);
  }
}
