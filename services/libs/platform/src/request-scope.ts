import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from './app-error';
import type { Logger } from './logger';

/**
 * The request whose work is running, for the last-resort handler below: every request runs in
 * its own scope (Lifecycle.listen), which callbacks and promises started on its behalf inherit,
 * an event of a socket pool included.
 */
const scope = new AsyncLocalStorage<{ req: IncomingMessage; res: ServerResponse }>();

export function inRequestScope(
  req: IncomingMessage,
  res: ServerResponse,
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): void {
  scope.run({ req, res }, handle, req, res);
}

let installed = false;

/**
 * No exception on a request's path ends the process (issue 48): one that nothing caught while a
 * request's work ran is logged and answered with 502 for that request alone (its connection cut
 * when the answer had begun); every other request goes on. Anything thrown outside a request
 * (a timer of the process's own, the start) still ends the process, logged first, as before:
 * the state it leaves is unknown, and the supervisor or Kubernetes starts it afresh.
 */
export function guardRequestPaths(logger: Logger, name: string): void {
  if (installed) return;
  installed = true;
  const onError = (err: unknown, kind: string): void => {
    const current = scope.getStore();
    if (!current) {
      logger.fatal({ err }, `${kind} outside a request; ${name} exits`);
      process.exit(1);
    }
    const { req, res } = current;
    logger.error(
      { err, method: req.method, path: (req.url ?? '').split('?')[0] },
      `${kind} on a request's path; answered 502 for that request only`,
    );
    answerBadGateway(res);
  };
  process.on('uncaughtException', (err) => onError(err, 'uncaught exception'));
  process.on('unhandledRejection', (err) => onError(err, 'unhandled rejection'));
}

function answerBadGateway(res: ServerResponse): void {
  try {
    if (res.headersSent || res.writableEnded) {
      res.destroy();
      return;
    }
    const error = new AppError('BAD_GATEWAY');
    const message = error.localizedMessage('de');
    const body = JSON.stringify({ success: false, code: error.code, message, detail: message });
    res.writeHead(error.status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
    });
    res.end(body);
  } catch {
    res.destroy();
  }
}
