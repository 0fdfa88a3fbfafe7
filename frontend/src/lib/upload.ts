import type { ApiError } from '../app/api';
import { currentLanguage } from '../app/i18n';

/** What an upload answered: the HTTP status (0 when no answer came) and the parsed body. */
export interface UploadAnswer {
  status: number;
  body: unknown;
}

/**
 * POSTs a multipart form through XMLHttpRequest, which reports the upload's progress (fetch
 * does not in every browser). `onProgress` hears 0–95: the last few percent wait for the
 * server's processing, and the caller sets 100 once the answer is in. Never rejects: no answer
 * (offline, timeout) is status 0.
 */
export function postWithProgress(
  url: string,
  form: FormData,
  headers: Record<string, string>,
  onProgress: (percent: number) => void,
): Promise<UploadAnswer> {
  return new Promise<UploadAnswer>((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
    // services answer messages in this language (docs/decisions.md "API shape")
    xhr.setRequestHeader('Accept-Language', currentLanguage());
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.min(95, Math.round((e.loaded / e.total) * 95)));
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = xhr.responseText;
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => resolve({ status: 0, body: null });
    xhr.ontimeout = () => resolve({ status: 0, body: null });
    xhr.send(form);
  });
}

/** The `data` of a successful upload's answer, or the failure as the app's ApiError. */
export function uploadOutcome<T>(
  answer: UploadAnswer,
): { ok: true; data: T } | { ok: false; error: ApiError } {
  const body = (
    typeof answer.body === 'object' && answer.body !== null ? answer.body : {}
  ) as Record<string, unknown>;
  if (answer.status >= 200 && answer.status < 300 && body.data) {
    return { ok: true, data: body.data as T };
  }
  const told = typeof body.message === 'string' && body.message.trim() !== '';
  return {
    ok: false,
    error: {
      status: answer.status,
      code:
        typeof body.code === 'string'
          ? body.code
          : answer.status === 0
            ? 'NETWORK_ERROR'
            : 'HTTP_ERROR',
      message: told ? (body.message as string) : `Upload failed: ${answer.status}`,
      detail: body.detail,
      // the server said nothing a person could read
      ...(told ? {} : { generic: true }),
    },
  };
}
