import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `audit_logs` (docs/audit.md): the append-only audit log. A trigger refuses every UPDATE, every
 * TRUNCATE and every DELETE except one made in a transaction that set `meridian.audit_log_purge`
 * to `on` (the `delete-audit-logs` retention job). No foreign keys: a row keeps the ids of the
 * user, workspace and project it names after they are gone.
 */
export class AddAuditLogs1795750000100 implements MigrationInterface {
  name = 'AddAuditLogs1795750000100';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "audit_logs" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "event" character varying(64) NOT NULL,
                "actor_id" uuid,
                "actor_email" character varying(255),
                "api_token_id" uuid,
                "workspace_id" uuid,
                "project_id" uuid,
                "target_type" character varying(40),
                "target_id" character varying(64),
                "ip_address" character varying(64),
                "user_agent" character varying(512),
                "metadata" jsonb NOT NULL DEFAULT '{}',
                CONSTRAINT "PK_audit_logs" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`CREATE INDEX "ix_audit_logs_created" ON "audit_logs" ("created_at", "id")`);
    await queryRunner.query(
      `CREATE INDEX "ix_audit_logs_workspace_created" ON "audit_logs" ("workspace_id", "created_at", "id")`,
    );
    await queryRunner.query(`
            CREATE FUNCTION audit_logs_append_only() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'DELETE' AND current_setting('meridian.audit_log_purge', true) = 'on' THEN
                    RETURN OLD;
                END IF;
                RAISE EXCEPTION 'audit_logs is append-only (% refused)', TG_OP
                    USING ERRCODE = 'insufficient_privilege';
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TRIGGER audit_logs_append_only BEFORE UPDATE OR DELETE ON "audit_logs"
            FOR EACH ROW EXECUTE FUNCTION audit_logs_append_only()
        `);
    await queryRunner.query(`
            CREATE TRIGGER audit_logs_no_truncate BEFORE TRUNCATE ON "audit_logs"
            FOR EACH STATEMENT EXECUTE FUNCTION audit_logs_append_only()
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER audit_logs_no_truncate ON "audit_logs"`);
    await queryRunner.query(`DROP TRIGGER audit_logs_append_only ON "audit_logs"`);
    await queryRunner.query(`DROP FUNCTION audit_logs_append_only()`);
    await queryRunner.query(`DROP INDEX "ix_audit_logs_workspace_created"`);
    await queryRunner.query(`DROP INDEX "ix_audit_logs_created"`);
    await queryRunner.query(`DROP TABLE "audit_logs"`);
  }
}
