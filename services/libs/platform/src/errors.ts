import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { DEFAULT_LANGUAGE, translateIssue, type Language } from '@furniture/contracts';
import type { z } from 'zod';
import { AppError } from './app-error';
import { isTransientError } from './failures';
import type { Logger } from './logger';

export { AppError } from './app-error';

/** The language a client asked for: ?lang, then Accept-Language; German by default. */
export function requestLanguage(req: Pick<Request, 'headers' | 'query'>): Language {
  const q = typeof req.query?.lang === 'string' ? req.query.lang : undefined;
  const header = q ?? req.headers['accept-language'] ?? '';
  const first = String(header).split(',')[0]?.trim().toLowerCase() ?? '';
  if (first.startsWith('uk') || first.startsWith('ua')) return 'uk';
  if (first.startsWith('de')) return 'de';
  return DEFAULT_LANGUAGE;
}

/** Parses input with a contract schema or throws a 422 listing every field. */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  where: 'body' | 'query' | 'path',
  lang: Language = DEFAULT_LANGUAGE,
): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw new AppError('VALIDATION_FAILED', {
    fieldErrors: result.error.issues.map((issue) => translateIssue(issue, lang, [where])),
  });
}

/** Shortcut used by routes: validates req.body / req.query / req.params in the request's language. */
export const input = {
  body: <S extends z.ZodType>(req: Request, schema: S): z.infer<S> =>
    parseInput(schema, req.body, 'body', requestLanguage(req)),
  query: <S extends z.ZodType>(req: Request, schema: S): z.infer<S> =>
    parseInput(schema, req.query, 'query', requestLanguage(req)),
  params: <S extends z.ZodType>(req: Request, schema: S): z.infer<S> =>
    parseInput(schema, req.params, 'path', requestLanguage(req)),
};

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new AppError('ROUTE_NOT_FOUND', { extra: { path: req.path } }));
};

/** Errors that body-parser and friends raise for bad client input. */
function fromClientError(err: {
  type?: string;
  status?: number;
  statusCode?: number;
}): AppError | undefined {
  const status = err.status ?? err.statusCode;
  if (err.type === 'entity.parse.failed') return new AppError('INVALID_JSON');
  if (err.type === 'entity.too.large' || status === 413) return new AppError('PAYLOAD_TOO_LARGE');
  if (err.type === 'encoding.unsupported' || status === 415)
    return new AppError('UNSUPPORTED_MEDIA_TYPE');
  if (typeof status === 'number' && status >= 400 && status < 500)
    return new AppError('BAD_REQUEST', { status });
  return undefined;
}

/**
 * One error middleware: `{detail, message, code}`. Validation answers 422 with
 * `detail: [{loc, msg, type}]`, which the spec's client joins; everything else has `detail` equal
 * to the message. Unknown errors are logged and answered 500 without internals.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const lang = requestLanguage(req);
    let appError =
      err instanceof AppError ? err : fromClientError((err ?? {}) as Record<string, never>);
    if (!appError && isTransientError(err)) {
      // the database (or another dependency) is away: the client may try again shortly
      logger.warn(
        { err: (err as Error).message, reqId: (req as { id?: string }).id, url: req.originalUrl },
        'dependency unavailable',
      );
      appError = new AppError('SERVICE_UNAVAILABLE', { extra: { retry_after: 5 } });
    }
    if (!appError || appError.isCatastrophic) {
      logger.error(
        { err, reqId: (req as { id?: string }).id, url: req.originalUrl },
        'unhandled error',
      );
    }
    const e = appError && !appError.isCatastrophic ? appError : new AppError('INTERNAL');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const message = e.localizedMessage(lang);
    // a limit's answer says when to come back in the header too (RFC 9110 Retry-After)
    const retryAfter = e.extra?.retry_after;
    if (typeof retryAfter === 'number' && retryAfter > 0) {
      res.setHeader('Retry-After', String(Math.ceil(retryAfter)));
    }
    res.status(e.status).json({
      success: false,
      code: e.code,
      message,
      // a field error without its own text carries the error's message
      detail: e.fieldErrors?.map((f) => (f.msg ? f : { ...f, msg: message })) ?? message,
      ...(e.extra ?? {}),
    });
  };
}
