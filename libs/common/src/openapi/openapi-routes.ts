import { INestApplication, Logger } from '@nestjs/common';
import express, { NextFunction, Request, Response } from 'express';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { sendError } from '../errors/error-body';
import { buildOpenApiDocument } from './openapi-document';

/** Where the document and the page are served. */
export const OPENAPI_JSON_PATH = '/api/openapi.json';
export const API_DOCS_PATH = '/api/docs';

const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Meridian API</title>
  <link rel="stylesheet" href="swagger-ui.css">
  <link rel="icon" type="image/png" href="favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="swagger-ui-bundle.js"></script>
  <script src="meridian-docs.js"></script>
</body>
</html>
`;

// relative URL: works behind a proxy that mounts the service under a sub-path; no validator
// (validatorUrl would send the document to validator.swagger.io)
const DOCS_INIT_JS = `window.ui = SwaggerUIBundle({
  url: '../openapi.json',
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  validatorUrl: null,
  deepLinking: true,
});
`;

/**
 * Serves the OpenAPI 3.1 document at `GET /api/openapi.json` and Swagger UI at `GET /api/docs/`,
 * both without credentials.
 *
 * The document is built on the first request and cached for the life of the process
 * (`buildOpenApiDocument`), so `@nestjs/swagger` is not loaded at start. The page and its assets
 * come from `swagger-ui-dist` (the copy `@nestjs/swagger` depends on), served from disk: no CDN.
 *
 * Call before the application initialises: these are plain Express routes registered ahead of
 * Nest's, so no App API route (`/api/...`) shadows them, and the 405 answer for other methods
 * (`allowedMethods`) sees them. They bypass Nest's guards, rate limits and request logging.
 */
export function serveOpenApi(app: INestApplication): void {
  const server = app.getHttpAdapter().getInstance() as express.Express;
  let json: Promise<string> | null = null;
  server.get(OPENAPI_JSON_PATH, (_req: Request, res: Response) => {
    json ??= buildOpenApiDocument(app).then((document) => JSON.stringify(document));
    json.then(
      (body) => res.type('application/json').send(body),
      (err: unknown) => {
        json = null;
        new Logger('OpenAPI').error(`Generating the OpenAPI document failed: ${(err as Error)?.stack ?? String(err)}`);
        sendError(res, 'INTERNAL_ERROR');
      },
    );
  });
  server.get(API_DOCS_PATH, (req: Request, res: Response) => {
    if (!req.originalUrl.split('?')[0].endsWith('/')) return res.redirect(301, 'docs/');
    res.type('text/html').send(DOCS_HTML);
  });
  server.get(`${API_DOCS_PATH}/meridian-docs.js`, (_req: Request, res: Response) => {
    res.type('application/javascript').send(DOCS_INIT_JS);
  });
  // the UI's own assets; its index.html and initializer (Swagger's demo) are not served
  const serveAssets = express.static(swaggerUiDist(), { index: false, fallthrough: true });
  server.use(API_DOCS_PATH, (req: Request, res: Response, next: NextFunction) =>
    /^\/(index\.html|swagger-initializer\.js)$/.test(req.path) ? next() : serveAssets(req, res, next),
  );
}

/** The directory of the `swagger-ui-dist` package that `@nestjs/swagger` resolves (without loading it). */
function swaggerUiDist(): string {
  const fromSwagger = createRequire(require.resolve('@nestjs/swagger'));
  return path.dirname(fromSwagger.resolve('swagger-ui-dist/package.json'));
}
