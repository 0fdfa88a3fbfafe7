import { pipeline } from 'node:stream/promises';
import { Router } from 'express';
import { AppError } from '@furniture/platform';
import type { PhotosService } from '../../domain/photos-service';

const IMMUTABLE = 'public, max-age=31536000, immutable';

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === '*' || t === etag);
}

/**
 * GET /media/{key}: the image bytes, streamed from the bucket. Keys never repeat, so the answer
 * may be cached for a year and never revalidated; ETag still answers 304 to a conditional GET.
 */
export function mediaRouter(photos: PhotosService): Router {
  const r = Router();
  r.get('/*key', async (req, res) => {
    const segments = (req.params as { key?: string[] }).key ?? [];
    const { info, body } = await photos.open(segments.join('/'));
    const etag = `"${info.etag}"`;
    if (matches(req.headers['if-none-match'], etag)) {
      res.status(304).set({ etag, 'cache-control': IMMUTABLE }).end();
      return;
    }
    const stream = req.method === 'HEAD' ? undefined : await body();
    if (stream === null) throw new AppError('PHOTO_NOT_FOUND');
    res.set({
      'content-type': info.contentType,
      'content-length': String(info.size),
      etag,
      'last-modified': info.lastModified.toUTCString(),
      'cache-control': IMMUTABLE,
      'x-content-type-options': 'nosniff',
    });
    if (!stream) {
      res.end();
      return;
    }
    // a client that goes away mid-download ends the pipeline; nothing to answer then
    await pipeline(stream, res).catch(() => res.destroy());
  });
  return r;
}
