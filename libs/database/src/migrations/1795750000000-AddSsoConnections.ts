import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `sso_connections` (enterprise sign-in connections: OIDC now, SAML and LDAP later; docs/sso-oidc.md)
 * and `sso_connection_domains` (each email domain owned by at most one connection).
 */
export class AddSsoConnections1795750000000 implements MigrationInterface {
  name = 'AddSsoConnections1795750000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "sso_connections" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "kind" character varying(20) NOT NULL,
                "name" character varying(255) NOT NULL,
                "is_enabled" boolean NOT NULL DEFAULT true,
                "allow_password" boolean NOT NULL DEFAULT false,
                "jit_provisioning" boolean NOT NULL DEFAULT true,
                "settings" jsonb NOT NULL DEFAULT '{}',
                "secret" text,
                "group_role_mappings" jsonb NOT NULL DEFAULT '[]',
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "created_by_id" uuid,
                "updated_by_id" uuid,
                CONSTRAINT "PK_sso_connections" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "sso_connection_domains" (
                "domain" character varying(255) NOT NULL,
                "connection_id" uuid NOT NULL,
                CONSTRAINT "PK_sso_connection_domains" PRIMARY KEY ("domain"),
                CONSTRAINT "FK_583137f115597324270f63bd49a" FOREIGN KEY ("connection_id")
                    REFERENCES "sso_connections"("id") ON DELETE CASCADE
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sso_connection_domains_connection" ON "sso_connection_domains" ("connection_id")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "ix_sso_connection_domains_connection"`);
    await queryRunner.query(`DROP TABLE "sso_connection_domains"`);
    await queryRunner.query(`DROP TABLE "sso_connections"`);
  }
}
