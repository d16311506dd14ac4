/**
 * The framework floor: what the stack the design card fixes (Express 5, and NestJS on
 * `@nestjs/platform-express`) costs a GET one by itself, with nothing of Meridian's around it. One
 * route, the External API v1's
 *
 *   GET /api/v1/workspaces/{slug}/projects/{project_id}/work-items/{id}/
 *
 * answered with the one statement Meridian sends for it once a key's access is cached
 * (`SQL_VISIBLE_ISSUE`, a named statement) and the same JSON bytes (bench/work-item-view.ts). No
 * authentication, no access checks, no rate limits, no request log, no security headers, no error
 * shape: a measuring stick for bench/floor.bench.ts, not a server.
 *
 *   FLOOR=express|nest FLOOR_DATABASE_URL=postgres://… FLOOR_POOL_SIZE=32 node dist/bench/floor-server.js
 *   → prints "floor: listening on http://127.0.0.1:PORT"
 */
import 'reflect-metadata';
import { Controller, Get, Module, NotFoundException, Param } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import { Pool } from 'pg';
// the same SQL text as Meridian's GET one (an import-free *.sql.ts file of the issue room)
/* eslint-disable-next-line no-restricted-imports */
import { SQL_VISIBLE_ISSUE } from '../libs/domain/src/issue/issue.sql';
import { view } from './work-item-view';

const pool = new Pool({
  connectionString: process.env.FLOOR_DATABASE_URL,
  max: Number(process.env.FLOOR_POOL_SIZE ?? 32),
});
const name = `f${createHash('sha1').update(SQL_VISIBLE_ISSUE).digest('hex').slice(0, 16)}`;

/** The work item as v1 shows it, or null: one statement. */
async function workItem(projectId: string, id: string) {
  const [row] = (await pool.query({ name, text: SQL_VISIBLE_ISSUE, values: [projectId, id] })).rows;
  return row ? view(row, row.assignee_ids, row.label_ids) : null;
}

const ROUTE = 'api/v1/workspaces/:slug/projects/:project_id/work-items';

@Controller(ROUTE)
class WorkItemController {
  @Get(':id')
  async one(@Param('project_id') projectId: string, @Param('id') id: string) {
    const item = await workItem(projectId, id);
    if (!item) throw new NotFoundException();
    return item;
  }
}

@Module({ controllers: [WorkItemController] })
class FloorModule {}

function listening(server: Server) {
  const { port } = server.address() as { port: number };
  process.stdout.write(`floor: listening on http://127.0.0.1:${port}\n`);
}

async function main() {
  const port = Number(process.env.PORT ?? 0);
  if (process.env.FLOOR === 'nest') {
    const app = await NestFactory.create<NestExpressApplication>(FloorModule, { logger: false });
    app.set('etag', false);
    await app.listen(port, '127.0.0.1');
    listening(app.getHttpServer() as Server);
    return;
  }
  const app = express();
  app.set('etag', false);
  app.get(`/${ROUTE}/:id/`, (req, res, next) => {
    workItem(req.params.project_id, req.params.id)
      .then((item) => (item ? res.json(item) : res.status(404).json({ detail: 'Not found.' })))
      .catch(next);
  });
  const server = app.listen(port, '127.0.0.1', () => listening(server));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
