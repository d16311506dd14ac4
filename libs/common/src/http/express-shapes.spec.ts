// Requests and responses made with Express's prototypes: a real Nest application on the adapter.
import { Controller, Get, Module, NestApplicationOptions, Req, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Express, Request, Response as ExpressResponse } from 'express';
import assert from 'node:assert/strict';
import { IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { ExpressShapesAdapter } from './express-shapes';

/** The request and response as Node made them, and their prototypes then, before Express saw them. */
const made: { req?: object; res?: object; reqPrototype?: object; resPrototype?: object } = {};
const record = (req: object, res: object) =>
  Object.assign(made, { req, res, reqPrototype: Object.getPrototypeOf(req), resPrototype: Object.getPrototypeOf(res) });

@Controller()
class ShapesController {
  @Get('shapes')
  shapes(@Req() req: Request, @Res() res: ExpressResponse) {
    const app = req.app as Express;
    res.json({
      requestPrototype: Object.getPrototypeOf(req) === app.request,
      responsePrototype: Object.getPrototypeOf(res) === app.response,
      madeWithRequestPrototype: made.reqPrototype === app.request,
      madeWithResponsePrototype: made.resPrototype === app.response,
      sameObjects: made.req === req && made.res === res,
      instances: req instanceof IncomingMessage && res instanceof ServerResponse,
      express: typeof res.json === 'function' && req.get('x-probe') === 'yes',
      ownKeys: Object.keys(req).includes('params') && !Object.keys(req).includes('request'),
    });
  }
}

@Module({ controllers: [ShapesController] })
class ShapesModule {}

/** Runs `check` against the module served by Nest on `ExpressShapesAdapter` with `options`. */
async function served(options: NestApplicationOptions, check: (shapes: () => Promise<Response>) => Promise<void>) {
  const app = await NestFactory.create<NestExpressApplication>(ShapesModule, new ExpressShapesAdapter(), {
    logger: false,
    ...options,
  });
  await app.listen(0, '127.0.0.1');
  const server = app.getHttpServer() as Server;
  // the first listener of `request` runs before Express's handler
  server.prependListener('request', record);
  try {
    const { port } = server.address() as AddressInfo;
    await check(() => fetch(`http://127.0.0.1:${port}/shapes`, { headers: { 'x-probe': 'yes' } }));
  } finally {
    await app.close();
  }
}

describe('ExpressShapesAdapter', () => {
  it("makes each request and response with the application's Express prototypes, Express's methods working", async () => {
    await served({}, async (shapes) => {
      for (let i = 0; i < 2; i++) {
        const answer = await shapes();
        assert.equal(answer.status, 200);
        assert.deepEqual(await answer.json(), {
          requestPrototype: true,
          responsePrototype: true,
          madeWithRequestPrototype: true,
          madeWithResponsePrototype: true,
          sameObjects: true,
          instances: true,
          express: true,
          ownKeys: true,
        });
      }
    });
  });

  it("is Nest's adapter as it is with forceCloseConnections", async () => {
    await served({ forceCloseConnections: true }, async (shapes) => {
      const body = (await (await shapes()).json()) as Record<string, boolean>;
      assert.equal(body.madeWithRequestPrototype, false);
      assert.equal(body.requestPrototype, true);
    });
  });
});
