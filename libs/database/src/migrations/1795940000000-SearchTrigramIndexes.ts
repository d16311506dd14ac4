import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A trigram GIN index (`pg_trgm`, on both engines: PGlite loads the extension, `pgliteExtensions`)
 * for the searches' `ILIKE '%text%'` (Plane's `icontains`), which otherwise read every row: the
 * live work items' names (workspace search, `entity-search/`, `search-issues/`, `work-items/search/`). A text of three characters or more is looked up in the index (a
 * Bitmap Index Scan), a shorter one walks the newest rows as before. `pg_trgm` is a trusted
 * extension (PostgreSQL 13+): the database's owner may create it. `down` drops the index and the
 * extension.
 */
export class SearchTrigramIndexes1795940000000 implements MigrationInterface {
  name = 'SearchTrigramIndexes1795940000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(
      `CREATE INDEX "ix_issues_name_trgm" ON "issues" USING gin ("name" gin_trgm_ops) WHERE "deleted_at" IS NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "ix_issues_name_trgm"`);
    await queryRunner.query(`DROP EXTENSION IF EXISTS pg_trgm`);
  }
}
