import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Response } from 'express';

/** Smaller answers are sent as they are (as the gateway's compression would: not worth it). */
const COMPRESS_FROM_BYTES = 1024;

/**
 * Sends a public list as JSON with an ETag (a client holding it gets 304) and, with
 * `shareSeconds`, says a shared cache may keep it that long (it must be the same for every
 * anonymous caller). The gateway's cache is that one server-side cache: it keeps this answer as
 * sent, per encoding, so a client that accepts gzip gets it compressed here.
 */
export function sendShareableJson(
  res: Response,
  value: unknown,
  shareSeconds = 0,
  /**
   * headers that belong to the answer (a page's X-Total-Count): part of the ETag, so that a 304
   * never confirms a body whose headers changed
   */
  headers: Record<string, string> = {},
): void {
  const body = Buffer.from(JSON.stringify(value));
  const hashed = createHash('sha1').update(body);
  for (const [name, v] of Object.entries(headers)) {
    hashed.update(`\n${name}: ${v}`);
    res.setHeader(name, v);
  }
  res.setHeader('ETag', `W/"${body.length.toString(16)}-${hashed.digest('base64').slice(0, 27)}"`);
  // browsers ask again each time (the ETag makes that a 304); the gateway may answer it itself
  if (shareSeconds > 0)
    res.setHeader('Cache-Control', `public, max-age=0, s-maxage=${shareSeconds}`);
  res.type('application/json');
  if (body.length >= COMPRESS_FROM_BYTES) {
    res.vary('Accept-Encoding');
    if (res.req.acceptsEncodings('gzip', 'identity') === 'gzip') {
      res.setHeader('Content-Encoding', 'gzip');
      // express answers 304 itself when the request's If-None-Match matches the ETag set here
      res.send(gzipSync(body));
      return;
    }
  }
  res.send(body);
}
