/**
 * A client written only from the specification's call lists (public-site §4 "Session", §7;
 * back-office §4 "Auth", §7), as a new integrator would write it: a versioned API base, JSON, a
 * bearer token from login; on a 401 one refresh (POST /auth/refresh with the bearer token) and
 * one retry; a refresh ahead of time when fewer than 300 s remain; lot lists read in any of the
 * three shapes the specification names. It keeps no cookies (a script without a cookie jar) and
 * knows nothing of this platform beyond the specification.
 */

/** The known category slugs (public-site §3) mapped to 1 to 8 (public-site §7). */
const CATEGORY_SLUGS: Record<string, number> = {
  'sofas-chairs': 1,
  'beds-matresses': 2,
  'tables-chairs': 3,
  'wardrobes-chests': 4,
  'kitchen-furniture': 5,
  'children-furniture': 6,
  'office-furniture': 7,
  'decor-accessories': 8,
};

/** public-site §9: refresh when fewer than 300 s remain. */
const TOKEN_REFRESH_THRESHOLD_SECONDS = 300;

export class SpecClientError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
  }
}

export interface SpecLot {
  id: number;
  name: { de: string; uk: string };
  status: string;
  category_id: number;
  condition?: string;
  [key: string]: unknown;
}

/** "Lot lists are accepted as success+data, as lots, or as a plain array" (public-site §7). */
export function lotList(answer: unknown): SpecLot[] {
  if (Array.isArray(answer)) return answer as SpecLot[];
  const o = answer as { success?: boolean; data?: unknown; lots?: unknown } | null;
  if (o && o.success !== undefined && Array.isArray(o.data)) return o.data as SpecLot[];
  if (o && Array.isArray(o.lots)) return o.lots as SpecLot[];
  throw new Error(`not a lot list: ${JSON.stringify(answer).slice(0, 200)}`);
}

/** "a single lot as success+data, lot, or the lot itself" (public-site §7). */
export function singleLot(answer: unknown): SpecLot {
  const o = answer as { success?: boolean; data?: unknown; lot?: unknown; id?: unknown };
  if (o.success !== undefined && o.data) return o.data as SpecLot;
  if (o.lot) return o.lot as SpecLot;
  if (typeof o.id === 'number') return o as SpecLot;
  throw new Error(`not a lot: ${JSON.stringify(answer).slice(0, 200)}`);
}

/** "id may be a number, a numeric string, or one of the known slugs mapped to 1 to 8". */
export function categoryIdOf(ref: number | string): number {
  if (typeof ref === 'number') return ref;
  if (/^\d+$/.test(ref)) return Number(ref);
  const id = CATEGORY_SLUGS[ref];
  if (id === undefined) throw new Error(`unknown category: ${ref}`);
  return id;
}

/** Phone normalising: keeps only digits and a leading plus (public-site §5). */
export const normalizePhone = (phone: string) =>
  (phone.trim().startsWith('+') ? '+' : '') + phone.replace(/\D/g, '');

export class SpecClient {
  token: string | null = null;
  user: { id: number; email: string; role: string } | null = null;
  /** counts what the session did, for the tests */
  readonly refreshes: string[] = [];

  constructor(
    private readonly origin: string,
    private readonly opts: { refreshThresholdSeconds?: number } = {},
  ) {}

  private get base() {
    return `${this.origin}/api/v1`;
  }

  private async send(method: string, path: string, body?: unknown, auth = true) {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (auth && this.token) headers.authorization = `Bearer ${this.token}`;
    if (method === 'GET' && path.startsWith('/lots/'))
      Object.assign(headers, { 'cache-control': 'no-cache', pragma: 'no-cache' });
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  private static fail(res: { status: number; body: unknown }): never {
    const b = res.body as { message?: string; detail?: unknown } | null;
    const message =
      b?.message ?? (typeof b?.detail === 'string' ? b.detail : `HTTP ${res.status}: error`);
    throw new SpecClientError(message, res.status, res.body);
  }

  /** Seconds until the token expires (from its exp claim). */
  private remainingSeconds(): number {
    if (!this.token) return Infinity;
    const payload = this.token.split('.')[1] ?? '';
    const { exp } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      exp?: number;
    };
    return typeof exp === 'number' ? exp - Date.now() / 1000 : Infinity;
  }

  /** POST /auth/refresh with the bearer token; answer access_token. */
  async refresh(): Promise<void> {
    const res = await this.send('POST', '/auth/refresh');
    const token = (res.body as { access_token?: unknown } | null)?.access_token;
    if (res.status !== 200 || typeof token !== 'string') {
      this.token = null;
      this.user = null;
      throw new SpecClientError('Session expired', res.status, res.body);
    }
    this.refreshes.push(token);
    this.token = token;
  }

  /** An authenticated call: a 401 triggers one refresh and one retry (public-site §4). */
  async call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const threshold = this.opts.refreshThresholdSeconds ?? TOKEN_REFRESH_THRESHOLD_SECONDS;
    if (this.token && this.remainingSeconds() < threshold) await this.refresh();
    let res = await this.send(method, path, body);
    if (res.status === 401 && this.token) {
      await this.refresh();
      res = await this.send(method, path, body);
      if (res.status === 401) throw new SpecClientError('Authentication failed', 401, res.body);
    }
    if (res.status >= 400) SpecClient.fail(res);
    return res.body as T;
  }

  /** A public call (no login needed; a token is sent when there is one). */
  async public<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.send(method, path, body, false);
    if (res.status >= 400) SpecClient.fail(res);
    return res.body as T;
  }

  // ---- Auth -------------------------------------------------------------------------------

  async login(email: string, password: string): Promise<void> {
    const res = await this.send('POST', '/auth/login', { email, password }, false);
    const token = (res.body as { access_token?: unknown } | null)?.access_token;
    if (res.status !== 200 || typeof token !== 'string') SpecClient.fail(res);
    this.token = token;
    this.user = await this.call('GET', '/auth/me');
  }

  async logout(): Promise<void> {
    // "failure of the server logout is ignored"
    await this.send('POST', '/auth/logout').catch(() => undefined);
    this.token = null;
    this.user = null;
  }

  // ---- Categories and lots (public-site §7, back-office §7) --------------------------------

  async categories(): Promise<{ id: number; lot_count: number }[]> {
    const answer = await this.public<{ success?: boolean; data?: unknown }>('GET', '/categories/');
    return Array.isArray(answer?.data) ? (answer.data as { id: number; lot_count: number }[]) : [];
  }

  async lots(): Promise<SpecLot[]> {
    return lotList(await this.public('GET', '/lots/'));
  }

  async lotsOfCategory(ref: number | string): Promise<SpecLot[]> {
    return lotList(await this.public('GET', `/lots/category/${categoryIdOf(ref)}`));
  }

  /** The call with the reference as given (the server maps slugs too). */
  async lotsOfCategoryAsGiven(ref: string): Promise<SpecLot[]> {
    return lotList(await this.public('GET', `/lots/category/${encodeURIComponent(ref)}`));
  }

  async lot(id: number): Promise<SpecLot> {
    return singleLot(await this.public('GET', `/lots/${id}`));
  }

  async searchLots(q: {
    search?: string;
    category_id?: number;
    status?: string;
    page?: number;
    limit?: number;
  }): Promise<{ lots: SpecLot[]; total: number; page: number; limit: number }> {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries({ page: 1, limit: 20, ...q }))
      if (v !== undefined) params.set(k, String(v));
    const answer = await this.public<{ total: number; page: number; limit: number }>(
      'GET',
      `/lots/search?${params}`,
    );
    return { ...answer, lots: lotList(answer) };
  }

  /** Admin list: query limit, skip ((page-1)*limit), category_id, status, search. */
  async adminLots(q: { page: number; limit: number; category_id?: number }): Promise<SpecLot[]> {
    const params = new URLSearchParams({
      limit: String(q.limit),
      skip: String((q.page - 1) * q.limit),
    });
    if (q.category_id) params.set('category_id', String(q.category_id));
    return lotList(await this.call('GET', `/lots?${params}`));
  }

  async createLot(lot: Record<string, unknown>): Promise<SpecLot> {
    return singleLot(await this.call('POST', '/lots/', lot));
  }

  async queueInfo(lotId: number, phone?: string) {
    const q = phone ? `?phone=${encodeURIComponent(normalizePhone(phone))}` : '';
    return this.public<{ success: boolean; data: Record<string, unknown> }>(
      'GET',
      `/lots/${lotId}/applications-info${q}`,
    );
  }

  // ---- Applications -----------------------------------------------------------------------

  async apply(form: {
    applicantName: string;
    applicantPhone: string;
    applicantWhatsApp?: string;
    applicantCity?: string;
    applicantAddress?: string;
    needsDeliveryHelp?: boolean;
    lotId: number;
  }): Promise<{ id: number; status: string; created_at: string }> {
    const notSpecified = 'Не вказано';
    return this.public('POST', '/applications/', {
      applicant_name: form.applicantName,
      applicant_phone: normalizePhone(form.applicantPhone),
      applicant_whatsapp: form.applicantWhatsApp ? normalizePhone(form.applicantWhatsApp) : null,
      applicant_email: null,
      applicant_city: form.applicantCity || notSpecified,
      applicant_address: form.applicantAddress || notSpecified,
      needs_delivery_help: form.needsDeliveryHelp ?? false,
      lot_id: form.lotId,
    });
  }

  async applications(q: { lot_id?: number; status?: string; page?: number; limit?: number }) {
    const limit = q.limit ?? 20;
    const params = new URLSearchParams({
      limit: String(limit),
      skip: String(((q.page ?? 1) - 1) * limit),
    });
    if (q.lot_id) params.set('lot_id', String(q.lot_id));
    if (q.status) params.set('status', q.status);
    return this.call<{ applications: Record<string, unknown>[]; total: number }>(
      'GET',
      `/applications?${params}`,
    );
  }

  /** PATCH application status, body {status} (back-office §7). */
  async setStatus(id: number, status: string) {
    return this.call<Record<string, unknown>>('PATCH', `/applications/${id}/status`, { status });
  }

  /**
   * PATCH application notes, body {internal_notes}: one line "[date time] role: email | action
   * | comment" (back-office §7).
   */
  async addNote(id: number, action: string, comment: string) {
    const now = new Date();
    const stamp = now.toLocaleString('de-DE');
    const line = `[${stamp}] ${this.user?.role}: ${this.user?.email} | ${action} | ${comment}`;
    return this.call<Record<string, unknown>>('PATCH', `/applications/${id}/notes`, {
      internal_notes: line,
    });
  }

  /** Back-office §4: a status update followed by a note line describing the action. */
  async changeStatusWithNote(id: number, status: string, action: string, comment: string) {
    await this.setStatus(id, status);
    try {
      return await this.addNote(id, action, comment);
    } catch {
      // "if the note fails after a status update, only a warning is logged"
      return null;
    }
  }

  // ---- Activity ---------------------------------------------------------------------------

  /** POST activity logs, body {action_type, target_id, details} (the client-side logger). */
  async logActivity(action_type: string, target_id: number | null, details: unknown) {
    return this.call<Record<string, unknown>>('POST', '/activity-logs', {
      action_type,
      target_id,
      details,
    });
  }

  async activityLogs(q: Record<string, string | number>) {
    const params = new URLSearchParams(
      Object.entries({ page: 1, limit: 50, ...q }).map(([k, v]): [string, string] => [
        k,
        String(v),
      ]),
    );
    return this.call<{ data: Record<string, unknown>[]; total: number }>(
      'GET',
      `/activity-logs?${params}`,
    );
  }
}
