import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddAuthCodesAndUserAccounts1795267130253 implements MigrationInterface {
  name = 'AddAuthCodesAndUserAccounts1795267130253';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "auth_codes" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "kind" character varying(20) NOT NULL,
                "email" character varying(255),
                "user_id" uuid,
                "digest" character(64) NOT NULL,
                "attempts" integer NOT NULL DEFAULT '0',
                "medium" character varying(30),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
                "used_at" TIMESTAMP WITH TIME ZONE,
                CONSTRAINT "PK_b0101d71f5450e1c151191188ed" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_auth_codes_user" ON "auth_codes" ("user_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_auth_codes_digest" ON "auth_codes" ("digest")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_auth_codes_kind_email" ON "auth_codes" ("kind", "email")
        `);
    await queryRunner.query(`
            CREATE TABLE "user_accounts" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "user_id" uuid NOT NULL,
                "provider" character varying(30) NOT NULL,
                "provider_account_id" character varying(255) NOT NULL,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "last_login_at" TIMESTAMP WITH TIME ZONE,
                CONSTRAINT "PK_125e915cf23ad1cfb43815ce59b" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_user_accounts_user" ON "user_accounts" ("user_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_user_accounts_provider_account" ON "user_accounts" ("provider", "provider_account_id")
        `);
    await queryRunner.query(`
            ALTER TABLE "auth_codes"
            ADD CONSTRAINT "FK_27ebce5f8ac14b8d0cdd2d59577" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "user_accounts"
            ADD CONSTRAINT "FK_6711686e2dc4fcf9c7c83b83735" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "user_accounts" DROP CONSTRAINT "FK_6711686e2dc4fcf9c7c83b83735"
        `);
    await queryRunner.query(`
            ALTER TABLE "auth_codes" DROP CONSTRAINT "FK_27ebce5f8ac14b8d0cdd2d59577"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_user_accounts_provider_account"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_user_accounts_user"
        `);
    await queryRunner.query(`
            DROP TABLE "user_accounts"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_auth_codes_kind_email"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_auth_codes_digest"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_auth_codes_user"
        `);
    await queryRunner.query(`
            DROP TABLE "auth_codes"
        `);
  }
}
