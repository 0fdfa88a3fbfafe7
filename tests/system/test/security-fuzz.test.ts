/**
 * Bad input on every route, generated from the published document with fast-check (issue 14):
 * wrong types for every documented field, operator objects ({$gt: ""}), __proto__ and
 * constructor keys, huge and unicode strings, in the body, the query and the path; then per
 * route malformed JSON, wrong content types, an oversized body, deep nesting and a URL over node's 16 KB header limit. Every answer
 * must be below 500 with the error shape {success, code, message, detail}, and a request that was
 * refused must not have changed any stored data. FUZZ_SEED repeats a run; FUZZ_RUNS sets the
 * number of generated inputs per route.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { Connection } from 'mongoose';
import {
  callerTokens,
  errorShapeProblem,
  fillPath,
  routeTable,
  send,
  type JsonSchema,
  type Route,
} from '../src/security';
import { startSystem, type System } from '../src/stack';

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

let s: System;
beforeAll(async () => {
  s = await startSystem({ full: true });
});
afterAll(async () => {
  await s?.stop();
});

// ---- generated values ---------------------------------------------------------------------------

const hugeString = fc.constantFrom('x'.repeat(20_000), '9'.repeat(400), '😀'.repeat(2_000));
const nastyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\u202e\u0301',
    '../../etc/passwd',
    '%00',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    '.*',
    '(a+)+$',
    '$where',
    '-1',
    '0',
    '1e309',
    'NaN',
    'null',
    'true',
    '__proto__',
    'constructor',
    '=cmd|calc',
  ),
  hugeString,
  fc.integer().map(String),
);
/** Objects MongoDB would read as operators. */
const operatorObject = fc.oneof(
  fc.record({ $gt: fc.constantFrom('', 0, null) }),
  fc.constantFrom({ $ne: null }, { $where: 'sleep(1000)' }, { $regex: '.*' }, { $in: [1, 2] }),
);
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  operatorObject,
  fc.array(fc.oneof(nastyString, fc.integer()), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), nastyString, { maxKeys: 4 }),
);

/** A value of a type the field does not take (or a nasty one of its own type). */
function wrongFor(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const types = new Set(
    [schema?.type, ...(schema?.anyOf ?? []).map((s) => s.type)].flat().filter(Boolean),
  );
  const others: fc.Arbitrary<unknown>[] = [nastyValue, operatorObject];
  if (!types.has('string')) others.push(nastyString);
  if (!types.has('integer') && !types.has('number')) others.push(fc.integer());
  if (!types.has('object')) others.push(fc.constant({ nested: { deeper: true } }));
  if (!types.has('array')) others.push(fc.constant([1, 'two', null]));
  return fc.oneof(...others);
}

/** The properties of a request body schema (the first object of an anyOf / oneOf). */
function bodyProperties(schema: JsonSchema | undefined): Record<string, JsonSchema> {
  if (!schema) return {};
  if (schema.properties) return schema.properties;
  for (const s of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])])
    if (s.properties) return s.properties;
  return {};
}

interface Input {
  params: Record<string, string>;
  query: [string, string][];
  /** the JSON text sent (a raw string so that __proto__ survives as a key) */
  body?: string;
}

function inputFor(route: Route): fc.Arbitrary<Input> {
  const op = route.operation;
  const pathNames = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const queryParams = (op.parameters ?? []).filter((p) => p.in === 'query');
  const json = op.requestBody?.content['application/json']?.schema;
  const props = bodyProperties(json);
  const hasBody = op.requestBody !== undefined;

  const params = fc.record(
    Object.fromEntries(
      pathNames.map((n) => [
        n,
        fc.option(
          nastyString.map((v) => encodeURIComponent(v).slice(0, 1_500)),
          { nil: undefined },
        ),
      ]),
    ),
  ) as fc.Arbitrary<Record<string, string | undefined>>;
  const query = fc.array(
    fc.tuple(
      fc.oneof(
        ...(queryParams.length > 0 ? [fc.constantFrom(...queryParams.map((p) => p.name))] : []),
        fc.constantFrom('limit', 'skip', 'page', '__proto__', 'constructor', 'lang', 'a[$gt]'),
      ),
      // generated URLs stay under node's 16 KB header limit (the raw cases go beyond it)
      nastyString.map((v) => v.slice(0, 600)),
    ),
    { maxLength: 4 },
  );
  const fields = fc.dictionary(
    fc.constantFrom(...Object.keys(props), 'extra', '$where', 'id'),
    fc.constant(null),
    { maxKeys: 4 },
  );
  const body: fc.Arbitrary<string | undefined> = hasBody
    ? fc.oneof(
        // documented fields with wrong or nasty values
        fields.chain((keys) =>
          fc
            .record(Object.fromEntries(Object.keys(keys).map((k) => [k, wrongFor(props[k])])))
            .map((o) => JSON.stringify(o)),
        ),
        // prototype pollution attempts (written as JSON text: an object literal would drop them)
        fc
          .constantFrom(
            '{"__proto__":{"role":"admin","isAdmin":true}}',
            '{"constructor":{"prototype":{"role":"admin"}}}',
            '{"name":{"__proto__":{"x":1}},"__proto__":null}',
          )
          .map((t) => t),
        // not an object at all
        fc.oneof(nastyValue, fc.array(nastyValue, { maxLength: 3 })).map((v) => JSON.stringify(v)),
      )
    : fc.constant(undefined);
  return fc.record({ params, query, body }).map(({ params: p, query: q, body: b }) => ({
    params: Object.fromEntries(
      Object.entries(p).filter((e): e is [string, string] => e[1] !== undefined),
    ),
    query: q,
    body: b,
  }));
}

/** Requests that no generator writes: broken bodies and content types. */
function rawCases(
  route: Route,
): { what: string; body?: string | Buffer; contentType?: string; query?: string }[] {
  // beyond node's 16 KB of headers: answered by the parser hook, in the error shape too
  const longUrl = { what: 'a 20 KB URL', query: `?q=${'x'.repeat(20_000)}` };
  if (route.method === 'get' || route.method === 'delete') return [longUrl];
  let deep = '1';
  for (let i = 0; i < 5_000; i++) deep = `[${deep}]`;
  return [
    longUrl,
    { what: 'malformed JSON', body: '{"a": ', contentType: 'application/json' },
    { what: 'JSON as text/plain', body: '{"a":1}', contentType: 'text/plain' },
    {
      what: 'a form',
      body: 'a=1&__proto__[x]=1',
      contentType: 'application/x-www-form-urlencoded',
    },
    { what: 'XML', body: '<a>1</a>', contentType: 'application/xml' },
    {
      what: 'broken multipart',
      body: '--b\r\nContent-Disposition: form-data; name="file"; filename="x.jpg"\r\n\r\nnot a jpeg',
      contentType: 'multipart/form-data; boundary=b',
    },
    {
      what: 'JSON in another charset',
      body: '{"a":1}',
      contentType: 'application/json; charset=utf-7',
    },
    { what: 'deep nesting', body: deep, contentType: 'application/json' },
    {
      what: 'oversized body',
      body: Buffer.alloc(11 * 1024 * 1024, 0x61),
      contentType: 'application/json',
    },
  ];
}

// ---- stored data --------------------------------------------------------------------------------

/** Bookkeeping that requests may legitimately touch (sessions, counters, event records, senders' claims). */
const BOOKKEEPING = /outbox|processed|session|login_|counter|activity|mail|dead|lock|lease|claim/;

const VOLATILE_FIELDS = /outbox|login|_at$/;

/** Every stored collection's digest by "<service>.<collection>" (bookkeeping left out). */
async function fingerprint(conns: Connection[]): Promise<Map<string, string>> {
  const digests = new Map<string, string>();
  for (const conn of conns) {
    const collections = (await conn.db!.listCollections().toArray())
      .map((c) => c.name)
      .filter((n) => !BOOKKEEPING.test(n))
      .sort();
    for (const name of collections) {
      const docs = await conn.db!.collection(name).find({}).sort({ _id: 1 }).toArray();
      // a login (fresh sessions for the calls that end theirs) writes its event and time here
      const data = docs.map((d) =>
        Object.fromEntries(Object.entries(d).filter(([k]) => !VOLATILE_FIELDS.test(k))),
      );
      digests.set(
        `${conn.name}.${name}`,
        createHash('sha256').update(JSON.stringify(data)).digest('hex'),
      );
    }
  }
  return digests;
}

/** The collections whose digest differs (or that appeared or went) between two fingerprints. */
function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((n) => before.get(n) !== after.get(n)).sort();
}

// ---- the run ------------------------------------------------------------------------------------

test('when every route gets generated bad input, then no answer is 5xx, every error has the shape, and refused requests change no stored data', async () => {
  const routes = await routeTable(s);
  const { tokens, fresh } = await callerTokens(s);
  const conns = [s.auth!, s.catalog, s.applications, s.media!, s.notification].map((x) => x.conn);
  const problems: string[] = [];
  let generated = 0;

  for (const route of routes) {
    // the refresh uses its token up: a second refresh with it would end the session
    const endsSession = [
      'post /api/v1/auth/logout',
      'patch /api/v1/auth/password',
      'post /api/v1/auth/refresh',
    ].includes(`${route.method} ${route.path}`);
    const before = await fingerprint(conns);
    let accepted = 0;
    const check = async (
      what: string,
      path: string,
      opts: { body?: string | Buffer; contentType?: string },
    ) => {
      const token = endsSession ? await fresh('admin') : tokens.admin;
      const answer = await send(s.url, route.method, path, { token, ...opts });
      if (answer.status < 300 && route.method !== 'get') accepted += 1;
      const where = `${route.method.toUpperCase()} ${route.path} (${what}; seed ${SEED}) → ${answer.status}`;
      if (answer.status >= 500 && !(route.gatewayOwn && answer.status === 503))
        problems.push(`${where}: ${JSON.stringify(answer.body).slice(0, 200)}`);
      const shape = errorShapeProblem(answer);
      if (shape) problems.push(`${where}: ${shape}`);
    };

    const inputs = fc.sample(inputFor(route), {
      numRuns: endsSession ? Math.min(RUNS, 8) : RUNS,
      seed: SEED,
    });
    for (const input of inputs) {
      const qs = input.query
        .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v).slice(0, 2_000)}`)
        .join('&');
      const path = fillPath(route.path, input.params) + (qs ? `?${qs}` : '');
      await check(
        `path ${JSON.stringify(input.params).slice(0, 80)} query ${qs.slice(0, 80)} body ${(input.body ?? '').slice(0, 120)}`,
        path,
        input.body !== undefined ? { body: input.body, contentType: 'application/json' } : {},
      );
      generated += 1;
    }
    for (const raw of rawCases(route)) {
      await check(raw.what, fillPath(route.path) + (raw.query ?? ''), {
        body: raw.body,
        contentType: raw.contentType,
      });
      generated += 1;
    }
    const touched = accepted === 0 ? changed(before, await fingerprint(conns)) : [];
    if (touched.length > 0)
      problems.push(
        `${route.method.toUpperCase()} ${route.path}: refused requests changed stored data (${touched.join(', ')})`,
      );
  }

  // the admin's session survived the run
  expect((await s.http.get('/api/v1/auth/me', { token: tokens.admin })).status).toBe(200);
  expect(generated).toBeGreaterThanOrEqual(routes.length * 9);
  expect(problems.slice(0, 30)).toEqual([]);
  // every route of the OpenAPI document (over 110) with a dozen bad inputs each: about 100 s alone,
  // longer beside the other suites of make test
}, 360_000);
