/**
 * Public writes (applications, wishes) are limited per phone number and, with a larger budget,
 * per client address, counted in this service's database (issue 15: the families of one
 * shelter share its address, so the address budget must not be what stops them).
 */
import { loadApplicationsConfig } from '../src/config';
import { phoneKey } from '@furniture/platform';
import {
  adminToken,
  applicationBody,
  e164,
  newPhone,
  publishLot,
  startApplications,
  wishBody,
  type ApplicationsHarness,
} from './harness';

let a: ApplicationsHarness;
beforeAll(async () => {
  a = await startApplications({
    env: {
      PUBLIC_WRITES_PER_PHONE: '3',
      PUBLIC_WRITES_PER_IP: '6',
      MAX_OPEN_APPLICATIONS_PER_PHONE: '100',
    },
  });
});
afterAll(async () => {
  await a?.stop();
});

const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
let ipSeq = 10;
const newIp = () => `203.0.113.${++ipSeq}`;
const lotId = async () => (await publishLot(a)).id;

test('the defaults: 3 writes per phone and 60 per address in 10 minutes', () => {
  const config = loadApplicationsConfig({});
  expect(config.PUBLIC_WRITES_PER_PHONE).toBe(3);
  expect(config.PUBLIC_WRITES_PER_PHONE_WINDOW_SECONDS).toBe(600);
  expect(config.PUBLIC_WRITES_PER_IP).toBe(60);
  expect(config.PUBLIC_WRITES_PER_IP_WINDOW_SECONDS).toBe(600);
});

test('when one phone number sends a fourth write, then 429 PHONE_RATE_LIMITED with Retry-After whichever form of the number and whichever address; other numbers go on', async () => {
  const phone = newPhone();
  const lots = [await lotId(), await lotId(), await lotId(), await lotId()];
  // the application's phone in two forms, and a wish with the same number as WhatsApp
  const statuses = [
    (
      await a.http.post(
        '/api/v1/applications/',
        applicationBody(lots[0]!, { applicant_phone: phone }),
        from(newIp()),
      )
    ).status,
    (
      await a.http.post(
        '/api/v1/applications/',
        applicationBody(lots[1]!, { applicant_phone: e164(phone) }),
        from(newIp()),
      )
    ).status,
    (await a.http.post('/api/v1/wishes/', wishBody({ applicant_whatsapp: phone }), from(newIp())))
      .status,
  ];
  expect(statuses).toEqual([201, 201, 201]);

  const refused = await a.http.post(
    '/api/v1/applications/',
    applicationBody(lots[3]!, { applicant_phone: phone }),
    { headers: { 'x-forwarded-for': newIp(), 'accept-language': 'uk' } },
  );
  expect(refused.status).toBe(429);
  expect(refused.body).toMatchObject({
    code: 'PHONE_RATE_LIMITED',
    retry_after: expect.any(Number),
  });
  expect(refused.body.message).toMatch(/^З цього номера телефону щойно надіслано забагато запитів/);
  expect(refused.body.retry_after).toBeGreaterThan(0);
  expect(refused.body.retry_after).toBeLessThanOrEqual(600);
  expect(Number(refused.headers.get('retry-after'))).toBe(refused.body.retry_after);
  const wish = await a.http.post(
    '/api/v1/wishes/',
    wishBody({ applicant_whatsapp: e164(phone) }),
    from(newIp()),
  );
  expect(wish.status).toBe(429);
  expect(wish.body.code).toBe('PHONE_RATE_LIMITED');
  expect(wish.body.message).toMatch(/^Mit dieser Telefonnummer wurden gerade zu viele Anfragen/);

  // nothing was stored for the refused ones
  const stored = await a.conn
    .collection('applications')
    .countDocuments({ applicant_phone: e164(phone) });
  expect(stored).toBe(2);
  // another family goes on
  expect(
    (await a.http.post('/api/v1/applications/', applicationBody(lots[3]!), from(newIp()))).status,
  ).toBe(201);
  // the counter's key holds a digest, never the number
  const rows = await a.conn.collection('public_writes').find({}).toArray();
  const digits = e164(phone).replace('+', '');
  expect(rows.some((r) => String(r.key).includes(digits))).toBe(false);
  expect(rows.some((r) => r.key === `phone:${phoneKey(e164(phone))}`)).toBe(true);
});

test('when one address (a shelter) sends writes of many families, then its larger budget holds until the seventh, which is 429 RATE_LIMITED; other addresses and staff go on', async () => {
  const shelter = newIp();
  const lot = await lotId();
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const res =
      i % 2 === 0
        ? await a.http.post('/api/v1/applications/', applicationBody(lot), from(shelter))
        : await a.http.post(
            '/api/v1/wishes/',
            wishBody({ applicant_whatsapp: newPhone() }),
            from(shelter),
          );
    statuses.push(res.status);
  }
  expect(statuses).toEqual([201, 201, 201, 201, 201, 201]);

  const refused = await a.http.post('/api/v1/applications/', applicationBody(lot), from(shelter));
  expect(refused.status).toBe(429);
  expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', retry_after: expect.any(Number) });
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

  expect(
    (await a.http.post('/api/v1/applications/', applicationBody(lot), from(newIp()))).status,
  ).toBe(201);
  const byStaff = await a.http.post('/api/v1/applications/', applicationBody(lot), {
    ...from(shelter),
    token: adminToken(),
  });
  expect(byStaff.status).toBe(201);
});

test('when a write is refused for bad input, then it costs no budget', async () => {
  const ip = newIp();
  const lot = await lotId();
  for (let i = 0; i < 7; i++) {
    const res = await a.http.post('/api/v1/applications/', { lot_id: lot }, from(ip));
    expect(res.status).toBe(422);
  }
  expect((await a.http.post('/api/v1/applications/', applicationBody(lot), from(ip))).status).toBe(
    201,
  );
});

test('when a submission is sent again with its Idempotency-Key (its answer was lost), then the resend costs no budget', async () => {
  const phone = newPhone();
  const lots = [await lotId(), await lotId(), await lotId(), await lotId()];
  const send = (lot: number, key: string) =>
    a.http.post('/api/v1/applications/', applicationBody(lot, { applicant_phone: phone }), {
      headers: { 'x-forwarded-for': newIp(), 'idempotency-key': key },
    });
  const first = await send(lots[0]!, 'form-1');
  expect(first.status).toBe(201);
  for (let i = 0; i < 3; i++) {
    const again = await send(lots[0]!, 'form-1');
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
  }
  expect((await send(lots[1]!, 'form-2')).status).toBe(201);
  expect((await send(lots[2]!, 'form-3')).status).toBe(201);
  expect((await send(lots[3]!, 'form-4')).body.code).toBe('PHONE_RATE_LIMITED');
});
