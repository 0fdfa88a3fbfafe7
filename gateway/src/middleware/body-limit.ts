import type { Request, RequestHandler } from 'express';
import { AppError } from '@furniture/platform';

/**
 * What a refused body may still send after its 413, read and dropped so that the client reads
 * the answer (a client that is still writing when the connection closes sees EPIPE or a reset,
 * never the 413): beyond it the connection is closed.
 */
const DRAIN_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Caps request bodies without parsing them (proxied bodies stream through untouched): refuses a
 * declared Content-Length over the limit at once — answering the 413 while the body is read and
 * dropped (up to DRAIN_MAX_BYTES), so that the client gets to read it — and cuts a chunked body
 * off when it passes the limit.
 */
export function bodyLimit(limitFor: (req: Request) => number): RequestHandler {
  return (req, res, next) => {
    const limit = limitFor(req);
    const refuse = () => next(new AppError('PAYLOAD_TOO_LARGE', { extra: { limit_bytes: limit } }));
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) {
      drain(req);
      return refuse();
    }
    if (req.headers['transfer-encoding']) {
      // a chunked body that passes the limit is already on its way to a service: cut off
      let seen = 0;
      req.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (seen > limit && !res.headersSent) {
          res.setHeader('connection', 'close');
          refuse();
          req.destroy();
        }
      });
    }
    next();
  };
}

/** Reads and drops what the client still sends; closes the connection past the bound. */
function drain(req: Request): void {
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DRAIN_MAX_BYTES) req.socket.destroy();
  });
  req.resume();
}
