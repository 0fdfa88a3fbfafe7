/**
 * What the generated security suites share: the route table as the gateway publishes it
 * (/api/v1/openapi.json), who may call each route, the kinds of caller with a token each, and
 * the checks of an answer (never 5xx, the error shape).
 */
import { generateKeyPairSync } from 'node:crypto';
import { eventually, signTestToken } from '@furniture/platform/testing';
import { SYSTEM_ADMIN, type System } from './stack';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call a route, read from the document's `security` and `x-roles`; `upload-token`: a
 * donor with the donation's upload token (none of the callers here has one); `provider-signed`:
 * a messaging provider's signed callback (none of the callers here can sign).
 */
export type Who =
  | 'anyone'
  | 'staff'
  | 'admin'
  | 'referrer-only'
  | 'upload-token'
  | 'provider-signed';

export interface Route {
  method: Method;
  /** as the document writes it, with {params} */
  path: string;
  who: Who;
  /** answered by the gateway itself (health, the document): no token is looked at */
  gatewayOwn: boolean;
  operation: OpenApiOperation;
}

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema?: JsonSchema;
}
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  $ref?: string;
}
export interface OpenApiOperation {
  security?: Record<string, string[]>[];
  'x-roles'?: string[];
  tags?: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, { schema?: JsonSchema }> };
}

const METHODS: Method[] = ['get', 'post', 'put', 'patch', 'delete'];

/** Every route of the published document. */
export async function routeTable(s: System): Promise<Route[]> {
  const doc = (await s.http.get('/api/v1/openapi.json')).body as {
    paths: Record<string, Partial<Record<Method, OpenApiOperation>>>;
  };
  const routes: Route[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const roles = operation['x-roles'];
      const anonymousAllowed =
        !operation.security ||
        operation.security.length === 0 ||
        operation.security.some((r) => Object.keys(r).length === 0);
      const uploadToken = operation.security?.some((r) => 'donationToken' in r) ?? false;
      const signed = operation.security?.some((r) => 'providerSignature' in r) ?? false;
      const who: Who = signed
        ? 'provider-signed'
        : uploadToken
          ? 'upload-token'
          : anonymousAllowed
            ? 'anyone'
            : roles && !roles.includes('admin')
              ? 'referrer-only'
              : roles && !roles.includes('volunteer')
                ? 'admin'
                : 'staff';
      routes.push({
        method,
        path,
        who,
        gatewayOwn: operation.tags?.includes('gateway') ?? false,
        operation,
      });
    }
  }
  return routes;
}

/** A value for each path parameter: well-formed, naming nothing that exists. */
const PARAM_VALUES: Record<string, string> = {
  id: '999999',
  photoId: '999999',
  itemId: '999999',
  lotId: '999999',
  ref: 'sofas-chairs',
  /** a family's handover link (64 hex characters; none such exists) */
  token: '0'.repeat(64),
  phone: '%2B4917600000000',
  file: '00000000-0000-4000-8000-000000000000-thumbnail.webp',
  /** a label code (six characters of the labels' alphabet; none such exists) */
  code: 'zzzzzz',
};

export function fillPath(path: string, values: Record<string, string> = PARAM_VALUES): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = values[name] ?? PARAM_VALUES[name];
    if (value === undefined) throw new Error(`no value for path parameter ${name} of ${path}`);
    return value;
  });
}

export const CALLERS = ['anonymous', 'volunteer', 'admin', 'expired', 'revoked', 'forged'] as const;
export type Caller = (typeof CALLERS)[number];

/**
 * A token of each kind: real sessions of the auth service for volunteer and admin, a logged-out
 * session (once every service refuses it), an expired one signed with the right key, and one
 * signed with another key. `fresh` logs the role in again (for calls that end their session).
 */
export async function callerTokens(s: System) {
  const login = async (email: string, password: string) => {
    const res = await s.http.post('/api/v1/auth/login', { email, password });
    if (res.status !== 200) throw new Error(`login of ${email}: ${JSON.stringify(res.body)}`);
    return res.body.access_token as string;
  };
  const admin = await login(SYSTEM_ADMIN.email, SYSTEM_ADMIN.password);
  const volunteerUser = {
    name: 'Vera Freiwillig',
    email: `volunteer-${Date.now()}@example.org`,
    password: 'Sonnenblumen-Feld-31',
  };
  const created = await s.http.post(
    '/api/v1/users',
    { ...volunteerUser, role: 'volunteer' },
    { token: admin },
  );
  if (created.status !== 201) throw new Error(`volunteer: ${JSON.stringify(created.body)}`);
  const volunteer = await login(volunteerUser.email, volunteerUser.password);

  const revoked = await login(SYSTEM_ADMIN.email, SYSTEM_ADMIN.password);
  await s.http.post('/api/v1/auth/logout', undefined, { token: revoked });
  await eventually(
    async () =>
      (await s.http.get('/api/v1/activity-logs?limit=1', { token: revoked })).status === 401 &&
      (await s.http.get('/api/v1/lots/search', { token: revoked })).status === 401,
    { what: 'the logged-out token refused' },
  );
  const other = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const tokens: Record<Caller, string | undefined> = {
    anonymous: undefined,
    volunteer,
    admin,
    expired: signTestToken({ id: 1, role: 'admin' }, { expiresInSeconds: -60 }),
    revoked,
    forged: signTestToken({ id: 1, role: 'admin' }, { privateKey: other.privateKey }),
  };
  return {
    tokens,
    fresh: (role: 'admin' | 'volunteer') =>
      role === 'admin'
        ? login(SYSTEM_ADMIN.email, SYSTEM_ADMIN.password)
        : login(volunteerUser.email, volunteerUser.password),
  };
}

export interface Answer {
  status: number;
  contentType: string;
  body: unknown;
}

/** A raw request through the gateway: any body, any content type. */
export async function send(
  baseUrl: string,
  method: string,
  path: string,
  opts: { token?: string; body?: string | Buffer; contentType?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.contentType) headers['content-type'] = opts.contentType;
  const res = await fetch(`${baseUrl}${path}`, {
    method: method.toUpperCase(),
    headers,
    body: opts.body,
  });
  const text = await res.text();
  const contentType = res.headers.get('content-type') ?? '';
  let body: unknown = text;
  if (contentType.includes('json') && text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: res.status, contentType, body };
}

/** What is wrong with an error answer's shape ({success: false, code, message, detail}), if any. */
export function errorShapeProblem(answer: Answer): string | undefined {
  if (answer.status < 400) return undefined;
  const b = answer.body as Record<string, unknown> | string;
  if (typeof b !== 'object' || b === null) return `not JSON: ${String(b).slice(0, 80)}`;
  if (b.success !== false) return 'success is not false';
  if (typeof b.code !== 'string' || !/^[A-Z_]+$/.test(b.code)) return 'no stable code';
  if (typeof b.message !== 'string' || b.message.length === 0) return 'no message';
  if (!('detail' in b)) return 'no detail';
  return undefined;
}
