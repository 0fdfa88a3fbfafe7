// The platform's HTTP API, for what the tests set up or check outside the browser: seeding
// lots and photos, creating the volunteer, reading a lot's state, the captured mail.
import { setTimeout as sleep } from 'node:timers/promises';

export class ApiClient {
  constructor(
    readonly apiUrl: string,
    private token: string | null = null,
  ) {}

  /** the refresh cookie of the login (`refresh_token=…`), sent only to refresh */
  private refreshCookie: string | null = null;

  async call<T = unknown>(
    method: string,
    url: string,
    opts: { body?: unknown; form?: FormData; headers?: Record<string, string> } = {},
  ): Promise<T> {
    let res = await this.send(method, url, opts);
    // access tokens are short-lived in the browser tests: refreshed with the cookie, like the SPA
    if (res.status === 401 && this.refreshCookie && (await this.refresh())) {
      res = await this.send(method, url, opts);
    }
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 500)}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  /** A GET's answer as bytes (a label PDF), refreshed like `call`. */
  async bytes(url: string): Promise<Buffer> {
    let res = await this.send('GET', url, {});
    if (res.status === 401 && this.refreshCookie && (await this.refresh())) {
      res = await this.send('GET', url, {});
    }
    if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  }

  private send(
    method: string,
    url: string,
    opts: { body?: unknown; form?: FormData; headers?: Record<string, string> },
  ): Promise<Response> {
    return fetch(`${this.apiUrl}${url}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...opts.headers,
      },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : opts.form,
    });
  }

  private keepCookie(res: Response): void {
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('refresh_token='));
    if (cookie) this.refreshCookie = cookie.split(';')[0]!;
  }

  private async refresh(): Promise<boolean> {
    const res = await fetch(`${this.apiUrl}/auth/refresh`, {
      method: 'POST',
      headers: { accept: 'application/json', cookie: this.refreshCookie ?? '' },
    });
    if (!res.ok) return false;
    this.keepCookie(res);
    this.token = ((await res.json()) as { access_token: string }).access_token;
    return true;
  }

  async login(email: string, password: string): Promise<this> {
    const res = await this.send('POST', '/auth/login', { body: { email, password } });
    const text = await res.text();
    if (!res.ok) throw new Error(`POST /auth/login: ${res.status} ${text.slice(0, 500)}`);
    this.keepCookie(res);
    this.token = (JSON.parse(text) as { access_token: string }).access_token;
    return this;
  }

  createLot(body: LotBody): Promise<Lot> {
    return this.call<Lot>('POST', '/lots/', { body });
  }

  /** POST /lots/{id}/photos like the back-office does (multipart `file`). */
  uploadPhoto(lotId: number, jpeg: Buffer, fileName: string): Promise<unknown> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), fileName);
    form.append('generate_thumbnails', 'true');
    return this.call('POST', `/lots/${lotId}/photos`, { form });
  }

  getLot(id: number): Promise<Lot> {
    return this.call<Lot>('GET', `/lots/${id}`);
  }

  createUser(user: {
    name: string;
    email: string;
    role: 'admin' | 'volunteer';
    password: string;
  }): Promise<{ id: number }> {
    return this.call('POST', '/users', { body: user });
  }

  applications(lotId: number): Promise<{ applications: Application[]; total: number }> {
    return this.call('GET', `/applications/?lot_id=${lotId}&limit=100`);
  }
}

export interface LotBody {
  name: { de: string; uk?: string };
  description: { de: string; uk?: string };
  detailed_description?: { de?: string; uk?: string };
  category_id: number;
  status: 'available' | 'reserved' | 'taken' | 'archived' | 'transferred';
  dimensions?: string;
  condition?: string;
  donor?: string;
  location?: string;
}

export interface Lot extends LotBody {
  id: number;
  photos: string[];
  gallery_photos: string[];
}

export interface Application {
  id: number;
  lot_id: number;
  status: 'pending' | 'approved' | 'rejected' | 'completed';
  applicant_name: string;
  applicant_phone: string;
}

/** Polls `check` until it answers something other than undefined/false. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs / 1000}s waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`,
      );
    }
    await sleep(250);
  }
}

export interface MailSummary {
  ID: string;
  Subject: string;
  To: { Address: string; Name: string }[];
}

export interface MailMessage extends MailSummary {
  Text: string;
  HTML: string;
}

/** The captured mail, read through Mailpit's API. */
export class MailCatcher {
  constructor(private readonly mailApiUrl: string) {}

  async to(address: string): Promise<MailSummary[]> {
    const query = encodeURIComponent(`to:${address}`);
    const res = await fetch(`${this.mailApiUrl}/api/v1/search?query=${query}&limit=50`);
    if (!res.ok) throw new Error(`mail search: ${res.status}`);
    const body = (await res.json()) as { messages: MailSummary[] };
    return body.messages;
  }

  async message(id: string): Promise<MailMessage> {
    const res = await fetch(`${this.mailApiUrl}/api/v1/message/${id}`);
    if (!res.ok) throw new Error(`mail ${id}: ${res.status}`);
    return (await res.json()) as MailMessage;
  }

  /** Waits for a message to `address` whose subject matches. */
  async waitFor(address: string, subject: RegExp, timeoutMs = 60_000): Promise<MailMessage> {
    const found = await eventually(
      `an e-mail to ${address} with a subject like ${String(subject)}`,
      async () => (await this.to(address)).find((m) => subject.test(m.Subject)),
      timeoutMs,
    );
    return this.message(found.ID);
  }
}

/** A message the providers' stand-in captured (issue 30), as GET /api/messages lists it. */
export interface CapturedMessage {
  id: string;
  channel: 'whatsapp' | 'sms';
  /** E.164 */
  to: string;
  /** the WhatsApp template's language (SMS: guessed from the text) */
  language: string | null;
  template: string | null;
  text: string;
  status: string;
  created_at: string;
}

/** What the stack's WhatsApp and SMS stand-in was asked to send, newest first (GET /api/messages). */
export class CapturedMessages {
  constructor(private readonly messagesApiUrl: string) {}

  async all(): Promise<CapturedMessage[]> {
    const res = await fetch(`${this.messagesApiUrl}/api/messages`);
    if (!res.ok) throw new Error(`stand-in messages: ${res.status}`);
    return ((await res.json()) as { messages: CapturedMessage[] }).messages;
  }

  /** The messages to a number (compared by its digits: +49 151 … and 49151… alike). */
  async to(phone: string): Promise<CapturedMessage[]> {
    const digits = phone.replace(/\D/g, '');
    return (await this.all()).filter((m) => m.to.replace(/\D/g, '') === digits);
  }

  /** Waits for a message to `phone` that `ok` accepts. */
  async waitFor(
    phone: string,
    what: string,
    ok: (message: CapturedMessage) => boolean,
    timeoutMs = 60_000,
  ): Promise<CapturedMessage> {
    return eventually(
      `a message to the family's number: ${what}`,
      async () => (await this.to(phone)).find(ok),
      timeoutMs,
    );
  }
}
