import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `saml_requests` (AuthnRequests sent and not yet answered: the `InResponseTo` check) and
 * `saml_assertions` (assertion IDs accepted, kept until they expire: the replay check) for SAML
 * sign-in (docs/sso-saml.md). Standalone tables (no foreign keys): rows live minutes.
 */
export class AddSamlMessages1795948100000 implements MigrationInterface {
  name = 'AddSamlMessages1795948100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "saml_requests" (
                "id" character varying(100) NOT NULL,
                "connection_id" uuid NOT NULL,
                "site" character varying(10) NOT NULL,
                "next_path" character varying(1000),
                "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
                CONSTRAINT "PK_saml_requests" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`CREATE INDEX "ix_saml_requests_expires_at" ON "saml_requests" ("expires_at")`);
    await queryRunner.query(`
            CREATE TABLE "saml_assertions" (
                "id" character varying(300) NOT NULL,
                "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
                CONSTRAINT "PK_saml_assertions" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`CREATE INDEX "ix_saml_assertions_expires_at" ON "saml_assertions" ("expires_at")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "ix_saml_assertions_expires_at"`);
    await queryRunner.query(`DROP TABLE "saml_assertions"`);
    await queryRunner.query(`DROP INDEX "ix_saml_requests_expires_at"`);
    await queryRunner.query(`DROP TABLE "saml_requests"`);
  }
}
