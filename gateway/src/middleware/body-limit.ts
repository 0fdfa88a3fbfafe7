import type { Request, RequestHandler } from 'express';
import { AppError } from '@furniture/platform';

/**
 * Caps request bodies without parsing them (proxied bodies stream through untouched): refuses a
 * declared Content-Length over the limit at once, and cuts a chunked body off when it passes it.
 */
export function bodyLimit(limitFor: (req: Request) => number): RequestHandler {
  return (req, res, next) => {
    const limit = limitFor(req);
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) {
      res.setHeader('connection', 'close');
      return next(new AppError('PAYLOAD_TOO_LARGE', { extra: { limit_bytes: limit } }));
    }
    if (req.headers['transfer-encoding']) {
      let seen = 0;
      req.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (seen > limit && !res.headersSent) {
          res.setHeader('connection', 'close');
          next(new AppError('PAYLOAD_TOO_LARGE', { extra: { limit_bytes: limit } }));
          req.destroy();
        }
      });
    }
    next();
  };
}
