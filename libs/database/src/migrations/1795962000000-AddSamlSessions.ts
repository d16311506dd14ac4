import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SAML single logout (docs/sso-saml.md): `saml_sessions` keeps, for each session a SAML sign-in
 * opened, the connection, the assertion's `NameID` (and Format) and the IdP's `SessionIndex`
 * (deleted with the session); `saml_requests.purpose` tells a LogoutRequest awaiting the IdP's
 * LogoutResponse (`logout`) from an AuthnRequest (`authn`, every row before this migration).
 */
export class AddSamlSessions1795962000000 implements MigrationInterface {
  name = 'AddSamlSessions1795962000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "saml_requests" ADD "purpose" character varying(10) NOT NULL DEFAULT 'authn'`);
    await queryRunner.query(`
            CREATE TABLE "saml_sessions" (
                "session_id" uuid NOT NULL,
                "connection_id" uuid NOT NULL,
                "name_id" character varying(1000) NOT NULL,
                "name_id_format" character varying(255),
                "session_index" character varying(255),
                CONSTRAINT "PK_saml_sessions" PRIMARY KEY ("session_id")
            )
        `);
    await queryRunner.query(
      `CREATE INDEX "ix_saml_sessions_connection_name_id" ON "saml_sessions" ("connection_id", "name_id")`,
    );
    await queryRunner.query(`
            ALTER TABLE "saml_sessions"
            ADD CONSTRAINT "FK_5065373613dfe0db6318b8dfa2d" FOREIGN KEY ("session_id") REFERENCES "auth_sessions"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "saml_sessions" DROP CONSTRAINT "FK_5065373613dfe0db6318b8dfa2d"`);
    await queryRunner.query(`DROP INDEX "ix_saml_sessions_connection_name_id"`);
    await queryRunner.query(`DROP TABLE "saml_sessions"`);
    await queryRunner.query(`ALTER TABLE "saml_requests" DROP COLUMN "purpose"`);
  }
}
