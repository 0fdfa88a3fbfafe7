type Json = Record<string, unknown>;

/** An answer's object, or an empty one for anything else (answers are read defensively). */
export const objectOf = (value: unknown): Json =>
  typeof value === 'object' && value !== null ? (value as Json) : {};

/** `{success, data}` answers; an answer without that envelope is taken as the data itself. */
export const dataOf = <T>(body: unknown): T => (objectOf(body).data ?? body) as T;
