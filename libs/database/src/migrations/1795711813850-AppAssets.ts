import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The App API's assets (Plane's `/api/assets/v2/…`): a user's avatar and cover image belong to no
 * workspace (`workspace_id` becomes nullable), and an image in a comment's description points at
 * its comment (`comment_id`, removed with the comment as in Plane).
 *
 * `down` removes the assets that belong to no workspace (user avatars and covers, whose rows the
 * old schema cannot hold) before `workspace_id` is NOT NULL again; their files stay in storage.
 */
export class AppAssets1795711813850 implements MigrationInterface {
  name = 'AppAssets1795711813850';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "file_assets" ALTER COLUMN "workspace_id" DROP NOT NULL
        `);
    await queryRunner.query(`
            ALTER TABLE "file_assets" ADD "comment_id" uuid
        `);
    await queryRunner.query(`
            ALTER TABLE "file_assets"
            ADD CONSTRAINT "FK_204201dba9d24838178d2333e9f" FOREIGN KEY ("comment_id") REFERENCES "issue_comments"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "file_assets" DROP CONSTRAINT "FK_204201dba9d24838178d2333e9f"
        `);
    await queryRunner.query(`
            ALTER TABLE "file_assets" DROP COLUMN "comment_id"
        `);
    await queryRunner.query(`
            DELETE FROM "file_assets" WHERE "workspace_id" IS NULL
        `);
    await queryRunner.query(`
            ALTER TABLE "file_assets" ALTER COLUMN "workspace_id" SET NOT NULL
        `);
  }
}
