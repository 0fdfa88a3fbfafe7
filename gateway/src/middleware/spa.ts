import { existsSync } from 'node:fs';
import path from 'node:path';
import { type RequestHandler, Router } from 'express';
import expressStaticGzip from 'express-static-gzip';

/**
 * Serves the built SPA: hashed assets cached for a year, index.html never cached, and every
 * other GET answered with index.html (history fallback) so deep links work. The frontend's
 * build writes Brotli and gzip copies of its files (frontend/scripts/compress.mjs); a browser
 * that takes them gets those (about 13 % fewer bytes than compressing on the fly), the others
 * the file as it is, compressed by the app's compression middleware.
 */
export function spa(dir: string): Router {
  const router = Router();
  const index = path.join(dir, 'index.html');
  router.use(
    expressStaticGzip(dir, {
      enableBrotli: true,
      orderPreference: ['br', 'gz'],
      index: false,
      serveStatic: {
        index: false,
        setHeaders: (res, file) => {
          if (file.includes(`${path.sep}assets${path.sep}`)) {
            res.setHeader('cache-control', 'public, max-age=31536000, immutable');
          } else {
            res.setHeader('cache-control', 'no-cache');
          }
        },
      },
    }),
  );
  const fallback: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (!existsSync(index)) {
      res
        .status(503)
        .type('text/plain')
        .send('The web app is not built yet: run `npm run build -w frontend`.');
      return;
    }
    res.setHeader('cache-control', 'no-cache');
    res.sendFile(index);
  };
  router.use(fallback);
  return router;
}
