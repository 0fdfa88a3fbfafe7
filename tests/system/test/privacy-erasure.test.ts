/**
 * Erasure on request across the services (issue 15): a family applies, wishes, is rejected with
 * a note and gets its mails; an administrator looks the number up through the gateway (in the
 * body), reads the notification service's records, and erases. Afterwards no document in any
 * service's database (catalog, applications, notification) holds the number, the name, the
 * e-mail or the address, the lookup finds nothing, the log says an erasure happened without
 * saying whose, and the impact figures are unchanged.
 */
import type { Connection } from 'mongoose';
import { eventually } from '@furniture/platform/testing';
import { startSystem, type System } from '../src/stack';

let s: System;
beforeAll(async () => {
  s = await startSystem();
});
afterAll(async () => {
  await s?.stop();
});

const PHONE = '0176 5550 9876';
const E164 = '+4917655509876';
const NAME = 'Halyna Dovzhenko';
const EMAIL = 'halyna.dovzhenko@example.org';
const ADDRESS = 'Karl-Marx-Straße 77';
const WHATSAPP = '+380 67 555 0321';
const TRACES = [E164, PHONE, '17655509876', 'Dovzhenko', EMAIL, ADDRESS, '5550321'];

/** Every document of every collection of a service's database, as text, with what it holds. */
async function tracesIn(conn: Connection): Promise<string[]> {
  const found: string[] = [];
  for (const { name } of await conn.db!.listCollections().toArray()) {
    for (const doc of await conn.db!.collection(name).find({}).toArray()) {
      const text = JSON.stringify(doc);
      for (const t of TRACES) if (text.includes(t)) found.push(`${conn.name}.${name}: ${t}`);
    }
  }
  return found;
}
const everywhere = async () =>
  (
    await Promise.all([s.catalog, s.applications, s.notification].map((svc) => tracesIn(svc.conn)))
  ).flat();

test('when an admin erases a phone number, then no service keeps a trace of the family, the lookup finds nothing and the counts stay', async () => {
  const staff = s.staff();
  const lot = await s.createLot();
  const applied = await s.http.post('/api/v1/applications/', {
    applicant_name: NAME,
    applicant_phone: PHONE,
    applicant_whatsapp: WHATSAPP,
    applicant_email: EMAIL,
    applicant_city: 'Berlin',
    applicant_address: ADDRESS,
    needs_delivery_help: false,
    lot_id: lot,
  });
  expect(applied.status).toBe(201);
  const appId = applied.body.id as number;
  const wished = await s.http.post('/api/v1/wishes/', {
    applicant_name: NAME,
    applicant_whatsapp: PHONE,
    applicant_email: EMAIL,
    furniture_category: 2,
    furniture_description: `Kinderbett für ${NAME}`,
  });
  expect(wished.status).toBe(201);
  const wishId = wished.body.id as number;

  // the erasure waits for open records
  const refused = await s.http.post('/api/v1/privacy/erase', { phone: PHONE }, staff);
  expect(refused.status).toBe(409);
  expect(refused.body.code).toBe('PRIVACY_OPEN_RECORDS');

  const rejected = await s.http.patch(
    `/api/v1/applications/${appId}/status`,
    { status: 'rejected', note: `${NAME} hat abgesagt` },
    staff,
  );
  expect(rejected.status).toBe(200);
  expect(
    (
      await s.http.patch(
        `/api/v1/wishes/${wishId}/status?status=cancelled`,
        { admin_notes: `${NAME} braucht nichts mehr` },
        staff,
      )
    ).status,
  ).toBe(200);

  // the lookup through the gateway, then the notification service's part for its ids
  const found = await s.http.post('/api/v1/privacy/lookup', { phone: E164 }, staff);
  expect(found.status).toBe(200);
  expect(found.body.applications.map((a: { id: number }) => a.id)).toEqual([appId]);
  expect(found.body.wishes.map((w: { id: number }) => w.id)).toEqual([wishId]);
  const before = await eventually(
    async () => {
      const r = await s.http.post(
        '/api/v1/privacy/records',
        { application_ids: [appId], wish_ids: [wishId] },
        staff,
      );
      const kinds = r.body.mails.map((m: { kind: string }) => m.kind).sort();
      return r.body.activity.length >= 4 && kinds.join() === 'rejected,submitted' ? r : undefined;
    },
    { what: 'mails and log entries of the family' },
  );
  expect(JSON.stringify(before.body)).toContain(EMAIL);
  const impact = async () => (await s.http.get('/api/v1/impact', staff)).body;
  const figures = await impact();
  expect((await everywhere()).length).toBeGreaterThan(0);

  const erased = await s.http.post('/api/v1/privacy/erase', { phone: PHONE }, staff);
  expect(erased.status).toBe(200);
  expect(erased.body).toEqual({ applications: 1, wishes: 1, donations: 0 });

  // every service follows through the event; then nothing is left anywhere
  const left = await eventually(
    async () => {
      const t = await everywhere();
      return t.length === 0 ? t : undefined;
    },
    { what: 'no trace of the family in any database', timeoutMs: 20000 },
  ).catch(async () => everywhere());
  expect(left).toEqual([]);

  expect((await s.http.post('/api/v1/privacy/lookup', { phone: PHONE }, staff)).body).toEqual({
    phone: E164,
    applications: [],
    wishes: [],
    donations: [],
    handovers: [],
  });
  // the log says that it happened (each erased record's entry, written once its handler ran)
  const erasures = await eventually(
    async () => {
      const r = await s.http.post(
        '/api/v1/privacy/records',
        { application_ids: [appId], wish_ids: [wishId] },
        staff,
      );
      expect(r.body.mails).toEqual([]);
      const found = r.body.activity.filter(
        (a: { action_type: string }) => a.action_type === 'ERASE',
      );
      return found.length === 2 ? found : undefined;
    },
    { what: 'the two ERASE entries' },
  );
  expect(erasures[0].details).toMatchObject({ reason: 'request' });

  // the application itself stays: status, lot and dates (the counts and the lot's history)
  const app = (await s.http.get(`/api/v1/applications/${appId}`, staff)).body;
  expect(app).toMatchObject({ id: appId, lot_id: lot, status: 'rejected', applicant_name: '' });
  expect(await impact()).toEqual(figures);
});
