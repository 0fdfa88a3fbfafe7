import express from 'express';
import { z } from 'zod';
import { AppError, createServiceApp, finishApp, input } from '../src';
import { api, listen, silentLogger } from '../src/testing';

describe('error middleware', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  let http: ReturnType<typeof api>;

  beforeAll(async () => {
    const app = createServiceApp({ name: 'errors-test', logger: silentLogger, metrics: false });
    const router = express.Router();
    router.post('/items', (req, res) => {
      const body = input.body(
        req,
        z.object({
          name: z.string().min(2),
          phone: z.string().regex(/^\d+$/, 'invalid_phone'),
          count: z.number().max(10),
        }),
      );
      res.json(body);
    });
    router.get('/missing', () => {
      throw new AppError('LOT_NOT_FOUND');
    });
    router.get('/crash', () => {
      throw new Error('secret internal detail');
    });
    router.get('/async-crash', async () => {
      await Promise.resolve();
      throw new TypeError('cannot read x of undefined');
    });
    router.get('/database-away', async () => {
      await Promise.resolve();
      const err = new Error('connection 7 to 127.0.0.1:27017 closed');
      err.name = 'MongoServerSelectionError';
      throw err;
    });
    app.use(router);
    server = await listen(finishApp(app, silentLogger));
    http = api(server.url, { contract: false }); // a test app, not the platform API
  });
  afterAll(() => server.close());

  test('when fields are invalid, then 422 with one {loc, msg} per field in the request language', async () => {
    const de = await http.post('/items', { name: 'x', phone: 'abc', count: 11 });
    expect(de.status).toBe(422);
    expect(de.body.detail).toEqual([
      { loc: ['body', 'name'], msg: 'Mindestens 2 Zeichen', type: 'too_short' },
      { loc: ['body', 'phone'], msg: 'Ungültige Telefonnummer', type: 'invalid_phone' },
      { loc: ['body', 'count'], msg: 'Höchstens 10', type: 'too_big_number' },
    ]);
    const uk = await http.post('/items', {}, { headers: { 'accept-language': 'uk-UA,uk;q=0.9' } });
    expect(uk.body.detail[0]).toEqual({
      loc: ['body', 'name'],
      msg: "Це поле обов'язкове",
      type: 'required',
    });
    expect(uk.body.message).toBe('Будь ласка, перевірте введені дані та спробуйте ще раз.');
  });

  test('when a known error is thrown, then its status, code and message answer', async () => {
    const res = await http.get('/missing');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      code: 'LOT_NOT_FOUND',
      message: 'Lot nicht gefunden',
      detail: 'Lot nicht gefunden',
    });
  });

  test('when an unexpected error is thrown, sync or async, then 500 without internals', async () => {
    for (const path of ['/crash', '/async-crash']) {
      const res = await http.get(path);
      expect(res.status).toBe(500);
      expect(res.body.code).toBe('INTERNAL');
      expect(JSON.stringify(res.body)).not.toContain('secret');
      expect(JSON.stringify(res.body)).not.toContain('undefined');
    }
  });

  test('when the database is away, then 503 SERVICE_UNAVAILABLE with Retry-After, not 500', async () => {
    const res = await http.get('/database-away');
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('SERVICE_UNAVAILABLE');
    expect(res.headers.get('retry-after')).toBe('5');
    expect(JSON.stringify(res.body)).not.toContain('27017');
  });

  test('when the route does not exist, then 404 ROUTE_NOT_FOUND', async () => {
    const res = await http.get('/nope');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('ROUTE_NOT_FOUND');
  });

  test('when the service is healthy, then /health and /ready answer 200', async () => {
    expect((await http.get('/health')).status).toBe(200);
    expect((await http.get('/ready')).body.status).toBe('ready');
  });
});
