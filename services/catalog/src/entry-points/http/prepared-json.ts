import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Response } from 'express';

interface Prepared {
  body: Buffer;
  /** the body gzipped once, when a client first accepts it (the gateway passes it on as it is) */
  gzipped?: Buffer;
  etag: string;
}

/** Smaller answers are sent as they are (as the gateway's compression would: not worth it). */
const COMPRESS_FROM_BYTES = 1024;
const prepared = new WeakMap<object, Prepared>();

/**
 * Sends a JSON answer built from a cached value, serializing it (and hashing its ETag) once per
 * cached value instead of once per request: the lots of a category are ~50 KiB, and serializing
 * plus hashing them cost more than everything else a cached request does. `key` is the cached
 * object (the same until the next write); a client holding the ETag gets 304. A client that
 * accepts gzip gets the body compressed once per cached value too, instead of by the gateway on
 * every request (its compression leaves an encoded answer alone). With `shareSeconds` the answer
 * says a shared cache may keep it that long (it must be the same for every anonymous caller).
 */
export function sendPreparedJson(
  res: Response,
  key: object,
  build: () => unknown,
  shareSeconds = 0,
  /**
   * headers that belong to the answer (a page's X-Total-Count): the same for the same `key`,
   * and part of the ETag, so that a 304 never confirms a body whose headers changed
   */
  headers: Record<string, string> = {},
): void {
  let answer = prepared.get(key);
  if (!answer) {
    const body = Buffer.from(JSON.stringify(build()));
    const hashed = createHash('sha1').update(body);
    for (const [name, value] of Object.entries(headers)) hashed.update(`\n${name}: ${value}`);
    const hash = hashed.digest('base64').slice(0, 27);
    answer = { body, etag: `W/"${body.length.toString(16)}-${hash}"` };
    prepared.set(key, answer);
  }
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('ETag', answer.etag);
  // browsers ask again each time (the ETag makes that a 304); a shared cache in front (the
  // gateway) may answer it itself for `shareSeconds`
  if (shareSeconds > 0)
    res.setHeader('Cache-Control', `public, max-age=0, s-maxage=${shareSeconds}`);
  res.type('application/json');
  if (answer.body.length >= COMPRESS_FROM_BYTES) {
    res.vary('Accept-Encoding');
    if (res.req.acceptsEncodings('gzip', 'identity') === 'gzip') {
      answer.gzipped ??= gzipSync(answer.body);
      res.setHeader('Content-Encoding', 'gzip');
      // express answers 304 itself when the request's If-None-Match matches the ETag set here
      res.send(answer.gzipped);
      return;
    }
  }
  res.send(answer.body);
}
