import { createHash } from 'node:crypto';
import path from 'node:path';
import { Router, type Response } from 'express';
import { createOpenApiDocument } from '@furniture/contracts/openapi';

/**
 * The published API: the OpenAPI 3.1 document generated from the contracts at
 * /api/v1/openapi.json, and a reference page at /api/docs drawn by Swagger UI from the npm
 * package swagger-ui-dist, served from here (no CDN; it runs under the gateway's CSP, which
 * allows scripts from this origin only and no eval).
 */

const DOCS = '/api/docs';
/** The files of swagger-ui-dist the page uses (nothing else of the package is served). */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Möbelbrücke API</title>
    <link rel="icon" type="image/png" href="${DOCS}/favicon-32x32.png" />
    <link rel="stylesheet" href="${DOCS}/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${DOCS}/swagger-ui-bundle.js"></script>
    <script src="${DOCS}/init.js"></script>
  </body>
</html>
`;

// validatorUrl: null keeps the page from asking swagger.io to validate the document
const INIT = `window.ui = SwaggerUIBundle({
  url: '/api/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
});
`;

function sendCached(res: Response, type: string, body: string | Buffer, etag: string): void {
  res.setHeader('content-type', type);
  res.setHeader('cache-control', 'no-cache');
  res.setHeader('etag', etag);
  res.send(body);
}

const etagOf = (body: string | Buffer): string =>
  `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;

export function apiDocs(): Router {
  const router = Router();
  const assetsDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  let document: { body: string; etag: string } | undefined;

  router.get('/api/v1/openapi.json', (_req, res) => {
    if (!document) {
      const body = JSON.stringify(createOpenApiDocument());
      document = { body, etag: etagOf(body) };
    }
    sendCached(res, 'application/json; charset=utf-8', document.body, document.etag);
  });

  router.get([DOCS, `${DOCS}/`], (_req, res) => {
    sendCached(res, 'text/html; charset=utf-8', PAGE, etagOf(PAGE));
  });
  router.get(`${DOCS}/init.js`, (_req, res) => {
    sendCached(res, 'text/javascript; charset=utf-8', INIT, etagOf(INIT));
  });
  router.get(`${DOCS}/:file`, (req, res, next) => {
    const file = String(req.params.file);
    const type = ASSETS[file];
    if (!type) return next();
    res.setHeader('content-type', type);
    res.sendFile(path.join(assetsDir, file), { maxAge: '1d' });
  });
  return router;
}
