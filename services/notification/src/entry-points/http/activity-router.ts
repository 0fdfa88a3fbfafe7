import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Router } from 'express';
import { stringify } from 'csv-stringify';
import {
  activityFilterSchema,
  activityLogCreateSchema,
  activityLogQuerySchema,
  type ActivityLogEntry,
} from '@furniture/contracts';
import { input, requireAdmin, requireStaff } from '@furniture/platform';
import type { ActivityService } from '../../domain/activity-service';
import { csvColumns, csvRow } from '../../domain/activity-csv';
import { localDay } from '@furniture/platform';

/**
 * /api/v1/activity-logs: reading the log is for administrators (back-office §2, §6); any staff
 * client may add an entry for its own user.
 */
export function activityRouter(
  activity: ActivityService,
  opts: { timeZone: string; csvDelimiter: string },
): Router {
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
    const entries = activity.exportEntries(filter); // refuses a bad date range before any byte
    let rows = 0;
    const toRows = async function* (source: AsyncIterable<ActivityLogEntry>) {
      for await (const entry of source) {
        rows += 1;
        yield csvRow(entry, opts.timeZone);
      }
    };
    const day = localDay(new Date(), opts.timeZone);
    res.setHeader('content-type', 'text/csv; charset=utf-8');
    res.setHeader('content-disposition', `attachment; filename="aktivitaetsprotokoll-${day}.csv"`);
    res.setHeader('cache-control', 'no-store');
    let completed = false;
    try {
      await pipeline(
        Readable.from(toRows(entries)),
        // bom: spreadsheet programs read the file as UTF-8 (Ukrainian names) only with it
        stringify({
          bom: true,
          header: true,
          columns: csvColumns,
          delimiter: opts.csvDelimiter,
          record_delimiter: 'windows',
        }),
        res,
      );
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
