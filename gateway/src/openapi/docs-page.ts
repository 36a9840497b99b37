import express, { type RequestHandler } from 'express';
// Only the assets' folder: the package's index also loads the 3.4 MB browser bundle into this process
// (11 MiB of heap at idle) though the gateway serves it as a file.
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path.js';

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Social Publishing and AI Content API: reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="docs"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/api/v1/openapi.json', dom_id: '#docs', deepLinking: true });`;

/** The human docs page: Swagger UI (served from the swagger-ui-dist package) over /api/v1/openapi.json. */
export function mountDocs(app: express.Express, compress: RequestHandler): void {
  app.use('/docs', compress);
  app.use('/docs/assets', express.static(getAbsoluteFSPath(), { index: false, maxAge: '1h' }));
  app.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(INIT);
  });
  app.get('/docs', (_req, res) => {
    res.type('html').send(PAGE);
  });
}
