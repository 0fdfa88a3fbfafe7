import {
  Errors,
  formatMessage,
  type ErrorCode,
  type FieldError,
  type Language,
  type LocalizedText,
} from '@furniture/contracts';

/** A message's placeholders; a text in both languages is filled in the message's language. */
type Params = Record<string, string | number | LocalizedText>;

const inLanguage = (params: Params, lang: Language): Record<string, string | number> =>
  Object.fromEntries(
    Object.entries(params).map(([k, v]) => [k, typeof v === 'object' ? v[lang] : v]),
  );

/**
 * The one error type for everything a user can cause (and for catastrophic failures).
 * `code` is stable; the message is rendered in the request's language by the error middleware.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly params: Params;
  readonly fieldErrors?: FieldError[];
  /** extra data the client may use (e.g. the current version on a stale-version conflict) */
  readonly extra?: Record<string, unknown>;
  readonly isCatastrophic: boolean;

  constructor(
    code: ErrorCode,
    opts: {
      params?: Params;
      status?: number;
      fieldErrors?: FieldError[];
      extra?: Record<string, unknown>;
      isCatastrophic?: boolean;
      cause?: unknown;
    } = {},
  ) {
    super(formatMessage(Errors[code].de, inLanguage(opts.params ?? {}, 'de')), {
      cause: opts.cause,
    });
    this.name = 'AppError';
    this.code = code;
    this.status = opts.status ?? Errors[code].status;
    this.params = opts.params ?? {};
    this.fieldErrors = opts.fieldErrors;
    this.extra = opts.extra;
    this.isCatastrophic = opts.isCatastrophic ?? false;
  }

  localizedMessage(lang: Language): string {
    return formatMessage(Errors[this.code][lang], inLanguage(this.params, lang));
  }
}
