/**
 * The demo's HTTP client of the platform's public API, through the gateway, as the SPA calls
 * it: a staff login (logged in again when the token ends), JSON calls and multipart uploads. A
 * 429 is waited out (its Retry-After) and said; a 503 (a service restarting, uploads busy) is
 * tried again a few times; any other error ends the run with the platform's message.
 */
const RETRIES_503 = 10;
/** the longest a 429 is waited for before the run gives up */
const MAX_RATE_WAIT_S = 15 * 60;

export class DemoApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type Say = (line: string) => void;

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  path: string;
  body?: unknown;
  /** a multipart upload instead of a JSON body */
  form?: () => FormData;
  headers?: Record<string, string>;
  /** without the staff token (a donor's photo upload carries its own) */
  anonymous?: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class DemoClient {
  private token: string | null = null;

  constructor(
    readonly baseUrl: string,
    private readonly credentials: { email: string; password: string },
    private readonly say: Say,
  ) {}

  async login(): Promise<void> {
    const res = await this.send({
      method: 'POST',
      path: '/api/v1/auth/login',
      body: this.credentials,
      anonymous: true,
    });
    this.token = (res as { access_token: string }).access_token;
  }

  /** A call's answer (parsed JSON); throws DemoApiError on a 4xx or 5xx. */
  async call<T = Record<string, unknown>>(call: Call): Promise<T> {
    return (await this.send(call)) as T;
  }

  private async send(call: Call, attempt = 0, relogged = false): Promise<unknown> {
    const headers: Record<string, string> = { 'accept-language': 'de', ...call.headers };
    if (!call.anonymous && this.token) headers.authorization = `Bearer ${this.token}`;
    let body: string | FormData | undefined;
    if (call.form) body = call.form();
    else if (call.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(call.body);
    }
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${call.path}`, { method: call.method, headers, body });
    } catch (err) {
      throw new Error(
        `the platform does not answer at ${this.baseUrl} (${(err as Error).message}): is make run running? (--url names another)`,
      );
    }
    const text = await res.text();
    const parsed =
      text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text;
    if (res.ok) return parsed;
    const answer = (typeof parsed === 'object' && parsed) || {};
    const code = String((answer as { code?: unknown }).code ?? res.status);
    const message = String((answer as { message?: unknown }).message ?? text);
    if (res.status === 401 && !call.anonymous && !relogged) {
      await this.login();
      return this.send(call, attempt, true);
    }
    if (res.status === 429) {
      const wait =
        Number((answer as { retry_after?: unknown }).retry_after) ||
        Number(res.headers.get('retry-after')) ||
        60;
      if (wait > MAX_RATE_WAIT_S) throw new DemoApiError(res.status, code, message);
      this.say(
        `the platform's budget of public writes is spent (${code}): waiting ${wait} s (make run with RATE_LIMIT_PUBLIC_WRITES=1000 avoids this; docs/operations.md, "Demo data")`,
      );
      await sleep(wait * 1000 + 200);
      return this.send(call, attempt, relogged);
    }
    if (res.status === 503 && attempt < RETRIES_503) {
      await sleep(500 * (attempt + 1));
      return this.send(call, attempt + 1, relogged);
    }
    throw new DemoApiError(
      res.status,
      code,
      `${call.method} ${call.path.split('?')[0]}: ${res.status} ${code}: ${message}`,
    );
  }

  /** Polls `probe` until it answers something other than undefined. */
  async until<T>(
    what: string,
    probe: () => Promise<T | undefined>,
    timeoutMs = 60_000,
  ): Promise<T> {
    const end = Date.now() + timeoutMs;
    for (let delay = 100; ; delay = Math.min(delay * 2, 1000)) {
      const found = await probe();
      if (found !== undefined) return found;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await sleep(delay);
    }
  }
}
