import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';
import * as http from 'node:http';
import type { Socket } from 'node:net';

/**
 * Nest's Express adapter whose HTTP server makes each request and response with Express's own
 * prototypes from the start (`app.request`, `app.response`: Node's `IncomingMessage` and
 * `ServerResponse` with Express's methods), through Node's `IncomingMessage` and `ServerResponse`
 * options of `http.createServer`.
 *
 * Express sets those prototypes on every request it handles (`Object.setPrototypeOf(req,
 * app.request)`, the same for the response). On an object made by Node's constructors that gave it
 * a hidden class outside V8's transition tree, so each property set afterwards (Express's `params`,
 * `route`, `baseUrl`…, Meridian's `id`, `user`, `workspaceAccess`, `projectAccess`, the response's
 * `locals`, `statusCode`…) made a new hidden class and copied its property list, about twenty per
 * request, and every access to them went through V8's megamorphic caches. Made with those
 * prototypes already, the objects follow the same hidden classes request after request, and
 * Express's `setPrototypeOf` to the same prototype changes nothing (BENCHMARKS.md "GET one:
 * closures named by the language, requests made with Express's prototypes"). Same objects, same
 * methods, same prototype chain once Express has them; `instanceof IncomingMessage` and
 * `instanceof ServerResponse` hold as before.
 *
 * With `httpsOptions`, `return503OnClosing` or `forceCloseConnections` (Meridian sets none) it is
 * Nest's adapter as it is.
 */
export class ExpressShapesAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    if (options?.httpsOptions || options?.return503OnClosing || options?.forceCloseConnections)
      return super.initHttpServer(options);
    const app = this.getInstance<Express>();
    this.httpServer = http.createServer(
      { IncomingMessage: requestClass(app), ServerResponse: responseClass(app) },
      app,
    );
  }
}

/** `IncomingMessage` with `app.request` as the prototype of what it makes. */
function requestClass(app: Express): typeof http.IncomingMessage {
  function ExpressRequest(this: http.IncomingMessage, socket: Socket) {
    http.IncomingMessage.call(this, socket);
  }
  ExpressRequest.prototype = app.request;
  return ExpressRequest as unknown as typeof http.IncomingMessage;
}

/** `ServerResponse` with `app.response` as the prototype of what it makes. */
function responseClass(app: Express): typeof http.ServerResponse {
  function ExpressResponse(this: http.ServerResponse, req: http.IncomingMessage, options?: unknown) {
    (http.ServerResponse as unknown as (this: unknown, ...args: unknown[]) => void).call(this, req, options);
  }
  ExpressResponse.prototype = app.response;
  return ExpressResponse as unknown as typeof http.ServerResponse;
}
