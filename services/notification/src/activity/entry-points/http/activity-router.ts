import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Router } from 'express';
import {
  activityFilterSchema,
  activityLogCreateSchema,
  activityLogQuerySchema,
} from '@furniture/contracts';
import { input, requireAdmin, requireStaff } from '@furniture/platform';
import type { ActivityService } from '../../domain/activity-service';
import type { CsvPiece } from '../../domain/activity-export';
import { localDay } from '@furniture/platform';

/**
 * /api/v1/activity-logs: reading the log is for administrators (back-office §2, §6); any staff
 * client may add an entry for its own user.
 */
export function activityRouter(activity: ActivityService, opts: { timeZone: string }): Router {
  const r = Router();

  r.get('/', requireAdmin, async (req, res) => {
    res.json(await activity.list(input.query(req, activityLogQuerySchema)));
  });

  r.get('/stats', requireAdmin, async (req, res) => {
    res.json(await activity.stats(input.query(req, activityFilterSchema)));
  });

  r.get('/users', requireAdmin, async (_req, res) => {
    res.json(await activity.users());
  });

  r.get('/export.csv', requireAdmin, async (req, res) => {
    const filter = input.query(req, activityFilterSchema);
    // refuses a bad date range before any byte
    const pieces = activity.exportCsv(filter);
    let rows = 0;
    const texts = async function* (source: AsyncIterable<CsvPiece>) {
      for await (const piece of source) {
        rows += piece.rows;
        yield piece.text;
      }
    };
    const day = localDay(new Date(), opts.timeZone);
    res.setHeader('content-type', 'text/csv; charset=utf-8');
    res.setHeader('content-disposition', `attachment; filename="aktivitaetsprotokoll-${day}.csv"`);
    res.setHeader('cache-control', 'no-store');
    let completed = false;
    try {
      await pipeline(Readable.from(texts(pieces)), res);
      completed = true;
    } finally {
      await activity.recordExport(req.actor!, filter, rows, completed);
    }
  });

  r.post('/', requireStaff, async (req, res) => {
    res
      .status(201)
      .json(await activity.create(req.actor!, input.body(req, activityLogCreateSchema)));
  });

  return r;
}
