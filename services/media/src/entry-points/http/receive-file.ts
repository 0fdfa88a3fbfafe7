import type { Request, Response } from 'express';
import multer from 'multer';
import { AppError } from '@furniture/platform';
import { checkDeclared } from '../../domain/file-checks';
import { tooLarge } from '../../domain/photo-intake';

/** Room for the multipart framing and the small text fields around the file. */
export const MULTIPART_ALLOWANCE_BYTES = 64 * 1024;

/** Multer and busboy failures as the client's errors (they carry no HTTP status of their own). */
function toAppError(err: unknown, maxBytes: number): unknown {
  if (err instanceof AppError) return err;
  if (err instanceof multer.MulterError) {
    if (err.code === 'LIMIT_FILE_SIZE') return tooLarge(maxBytes);
    if (err.code === 'LIMIT_FILE_COUNT' || err.code === 'LIMIT_UNEXPECTED_FILE')
      return new AppError('PHOTO_SINGLE_FILE_ONLY', { cause: err });
    return new AppError('BAD_REQUEST', { cause: err });
  }
  const message = err instanceof Error ? err.message : '';
  if (/unexpected end of form|request (aborted|closed)/i.test(message))
    return new AppError('PHOTO_UPLOAD_INCOMPLETE', { cause: err });
  if (/multipart|boundary|malformed/i.test(message))
    return new AppError('BAD_REQUEST', { cause: err });
  return err;
}

/**
 * Reads the one file of a multipart upload into memory, at most `maxBytes`: a larger file is cut
 * off where it passes the limit (the rest of the body is read and dropped, never kept). The
 * extension and the declared type are checked as soon as the part's headers arrive, before its
 * bytes are read. Answers undefined when the request carries no file.
 */
export function fileReceiver(opts: { maxBytes: number }) {
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: {
      fileSize: opts.maxBytes,
      files: 1,
      fields: 10,
      fieldSize: 1024,
      fieldNameSize: 100,
      parts: 12,
      headerPairs: 50,
    },
    fileFilter: (_req, file, cb) => {
      try {
        checkDeclared({ name: file.originalname, type: file.mimetype });
        cb(null, true);
      } catch (err) {
        cb(err as Error);
      }
    },
  }).single('file');

  return (req: Request, res: Response): Promise<Express.Multer.File | undefined> =>
    new Promise((resolve, reject) => {
      upload(req, res, (err?: unknown) => {
        if (err) reject(toAppError(err, opts.maxBytes));
        else resolve(req.file);
      });
    });
}
