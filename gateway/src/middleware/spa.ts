import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { type RequestHandler, Router } from 'express';
import expressStaticGzip from 'express-static-gzip';

/** The page every visitor asks for first, kept in memory with its compressed copies. */
interface Page {
  mtimeMs: number;
  etag: string;
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

/** How often index.html is looked at again for a new build (make run rebuilds between runs). */
const RECHECK_MS = 1000;

/**
 * index.html from memory: the home page is among the pages a rush asks for most, and reading it
 * from disk (stat, open, read, close) for each one cost the gateway as much as answering it
 * (issue 48). Its build's Brotli and gzip copies are kept beside it; a newer build on disk is
 * seen within a second.
 */
function indexPage(file: string): () => Page | undefined {
  let page: Page | undefined;
  let checkedAt = 0;
  const read = (suffix: string): Buffer | undefined =>
    existsSync(file + suffix) ? readFileSync(file + suffix) : undefined;
  return () => {
    const now = Date.now();
    if (page && now - checkedAt < RECHECK_MS) return page;
    checkedAt = now;
    let mtimeMs: number;
    let size: number;
    try {
      ({ mtimeMs, size } = statSync(file));
    } catch {
      page = undefined;
      return undefined;
    }
    if (page?.mtimeMs === mtimeMs) return page;
    page = {
      mtimeMs,
      etag: `W/"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`,
      identity: readFileSync(file),
      br: read('.br'),
      gzip: read('.gz'),
    };
    return page;
  };
}

/**
 * Serves the built SPA: hashed assets cached for a year, index.html never cached, and every
 * other GET answered with index.html (history fallback) so deep links work. The frontend's
 * build writes Brotli and gzip copies of its files (frontend/scripts/compress.mjs); a browser
 * that takes them gets those (about 13 % fewer bytes than compressing on the fly), the others
 * the file as it is, compressed by the app's compression middleware.
 */
export function spa(dir: string): Router {
  const router = Router();
  const index = indexPage(path.join(dir, 'index.html'));
  // a page of the app (no file extension: the home page, a lot's deep link) goes straight to
  // index.html from memory; only files are looked up on disk
  router.use((req, res, next) =>
    /\.[a-z0-9]+$/i.test(req.path) ? next() : fallback(req, res, next),
  );
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
  function fallback(...[req, res, next]: Parameters<RequestHandler>): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const page = index();
    if (!page) {
      res
        .status(503)
        .type('text/plain')
        .send('The web app is not built yet: run `npm run build -w frontend`.');
      return;
    }
    res.setHeader('cache-control', 'no-cache');
    res.setHeader('etag', page.etag);
    res.setHeader('vary', 'Accept-Encoding');
    if (req.headers['if-none-match'] === page.etag) {
      res.statusCode = 304;
      res.end();
      return;
    }
    const encoding = req.acceptsEncodings(['br', 'gzip', 'identity']);
    const body =
      encoding === 'br' && page.br
        ? page.br
        : encoding === 'gzip' && page.gzip
          ? page.gzip
          : page.identity;
    if (body !== page.identity) res.setHeader('content-encoding', encoding as string);
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': String(body.length),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }
  router.use(fallback);
  return router;
}
