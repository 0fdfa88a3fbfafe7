/**
 * The item at the handover (issue 45), behind the real gateway next to the real catalog: the
 * driver scans the lot's label before "erledigt"; another lot's code warns by name and needs a
 * second confirmation, every scan is recorded on the stop and published for the activity log.
 * The booked lot's code comes from the lot read model (fed by the catalog's events, also the
 * lot.labelled of a lot of an earlier version).
 */
import { Events, type WrongItemExtra } from '@furniture/contracts';
import { adminToken, applicationBody, eventually, volunteerToken } from './harness';
import { startStack, type Stack } from './stack';

const HOUR = 3600_000;
const clock = (() => {
  const now = new Date('2026-11-24T09:00:00Z');
  return { timeZone: 'Europe/Berlin', now: () => now };
})();
const driver = { token: volunteerToken() };
const admin = { token: adminToken() };

let s: Stack;
beforeAll(async () => {
  s = await startStack({ calendar: clock });
});
afterAll(async () => {
  await s?.stop();
});

let slotId = 0;
let slotDay = '';
/** One pickup slot three days ahead (room for every family of the file). */
async function theSlot(): Promise<number> {
  if (slotId) return slotId;
  const location = await s.http.post(
    '/api/v1/locations/',
    { name: 'Lager Ost', address: 'Hafenweg 2', city: 'Leipzig' },
    admin,
  );
  const start = new Date(clock.now().getTime() + 72 * HOUR);
  slotDay = start.toLocaleDateString('sv-SE', { timeZone: 'Europe/Berlin' });
  const slot = await s.http.post(
    '/api/v1/slots/',
    {
      location_id: location.body.id,
      kind: 'pickup',
      starts_at: start.toISOString(),
      ends_at: new Date(start.getTime() + HOUR).toISOString(),
      capacity: 10,
    },
    admin,
  );
  expect(slot.status).toBe(201);
  slotId = slot.body.id as number;
  return slotId;
}

/** A family approved for `lot` with its slot booked: the stop's id on the day plan. */
async function bookedStop(lot: number, name: string): Promise<number> {
  const applied = await s.http.post(
    '/api/v1/applications/',
    applicationBody(lot, { applicant_name: name }),
  );
  expect(applied.status).toBe(201);
  await s.http.patch(
    `/api/v1/applications/${applied.body.id}/status`,
    { status: 'approved' },
    admin,
  );
  const url = await eventually(
    async () => {
      const app = (await s.http.get(`/api/v1/applications/${applied.body.id}`, admin)).body;
      return app.status === 'approved' && app.handover_url
        ? (app.handover_url as string)
        : undefined;
    },
    { what: 'the approval' },
  );
  const token = url.split('/handover/')[1]!;
  const slot = await theSlot();
  expect((await s.http.post(`/api/v1/handovers/${token}/booking`, { slot_id: slot })).status).toBe(
    200,
  );
  const plan = await s.http.get(`/api/v1/handovers/?date=${slotDay}`, driver);
  return (plan.body.handovers as { id: number; application_id: number }[]).find(
    (h) => h.application_id === applied.body.id,
  )!.id;
}

const codeOf = async (lot: number) => (await s.catalogLot(lot)).label_code as string;
const scan = (stop: number, code: string, confirm?: boolean, lang = 'de') =>
  s.http.post(
    `/api/v1/handovers/${stop}/scan`,
    { code, ...(confirm === undefined ? {} : { confirm }) },
    { ...driver, headers: { 'accept-language': lang } },
  );
const checksOf = (stop: number) =>
  s.recorder.of(Events.HandoverItemChecked).filter((e) => e.payload.handover_id === stop);

test('when the driver scans another lot, then 409 WRONG_ITEM names both lots until confirmed a second time; the booked lot matches; each scan is on the stop and published', async () => {
  const booked = await s.createLot({
    name: { de: 'Kleiderschrank weiß, 2-türig', uk: 'Шафа біла' },
  });
  const similar = await s.createLot({
    name: { de: 'Kleiderschrank weiß, 3-türig', uk: 'Шафа біла, 3' },
  });
  const stop = await bookedStop(booked, 'Olha Scan');
  const [bookedCode, similarCode] = [await codeOf(booked), await codeOf(similar)];

  const wrong = await scan(stop, similarCode);
  expect(wrong.status).toBe(409);
  expect(wrong.body.code).toBe('WRONG_ITEM');
  expect(wrong.body.message).toBe(
    `Das ist Lot ${similar} Kleiderschrank weiß, 3-türig, gebucht ist Lot ${booked} Kleiderschrank weiß, 2-türig.`,
  );
  const extra = wrong.body as WrongItemExtra;
  expect(extra.booked_lot).toEqual({
    id: booked,
    name: { de: 'Kleiderschrank weiß, 2-türig', uk: 'Шафа біла' },
  });
  expect(extra.scanned_lot?.id).toBe(similar);
  const uk = await scan(stop, similarCode, undefined, 'uk');
  expect(uk.body.message).toBe(
    `Це лот ${similar} Kleiderschrank weiß, 3-türig, а заброньовано лот ${booked} Kleiderschrank weiß, 2-türig.`,
  );

  const unknown = await scan(stop, 'ZZZ-ZZZ');
  expect([unknown.status, unknown.body.code]).toEqual([409, 'UNKNOWN_ITEM']);
  expect(unknown.body.message).toBe(
    `Der Code ZZZZZZ gehört zu keinem Lot, gebucht ist Lot ${booked} Kleiderschrank weiß, 2-türig.`,
  );

  const confirmed = await scan(stop, similarCode, true);
  expect(confirmed.status).toBe(200);
  expect(confirmed.body).toEqual({
    match: false,
    confirmed: true,
    lot: { id: booked, name: { de: 'Kleiderschrank weiß, 2-türig', uk: 'Шафа біла' } },
  });
  let plan = await s.http.get(`/api/v1/handovers/?date=${slotDay}`, driver);
  expect(plan.body.handovers.find((h: { id: number }) => h.id === stop).item_check).toEqual({
    code: similarCode,
    scanned_lot_id: similar,
    match: false,
    confirmed: true,
  });

  // typed by hand, in lower case with a dash
  const typed = `${bookedCode.slice(0, 3)}-${bookedCode.slice(3)}`.toLowerCase();
  const right = await scan(stop, typed);
  expect(right.status).toBe(200);
  expect(right.body).toMatchObject({ match: true, confirmed: false, lot: { id: booked } });
  plan = await s.http.get(`/api/v1/handovers/?date=${slotDay}`, driver);
  expect(plan.body.handovers.find((h: { id: number }) => h.id === stop).item_check).toMatchObject({
    code: bookedCode,
    match: true,
  });

  await eventually(() => checksOf(stop).length === 5, { what: 'five handover.item_checked' });
  expect(
    checksOf(stop).map((e) => [
      e.payload.code,
      e.payload.scanned_lot?.id ?? null,
      e.payload.match,
      e.payload.confirmed,
    ]),
  ).toEqual([
    [similarCode, similar, false, false],
    [similarCode, similar, false, false],
    ['ZZZZZZ', null, false, false],
    [similarCode, similar, false, true],
    [bookedCode, booked, true, false],
  ]);
  expect(checksOf(stop)[0]!.actor?.role).toBe('volunteer');
  // nothing of the family in what the activity log receives
  expect(JSON.stringify(checksOf(stop))).not.toContain('Olha');

  // the stop done: no more scans of it
  expect(
    (await s.http.patch(`/api/v1/handovers/${stop}`, { outcome: 'done' }, driver)).status,
  ).toBe(200);
  const late = await scan(stop, bookedCode);
  expect([late.status, late.body.code]).toEqual([409, 'HANDOVER_CLOSED']);
});

test('when a lot of an earlier version gets its code later, then the read model learns it from lot.labelled and the scan matches', async () => {
  const lot = await s.createLot({ name: { de: 'Regal Buche', uk: 'Полиця' } });
  const stop = await bookedStop(lot, 'Petro Label');
  const catalogDb = s.catalog.conn;
  // the relay's write of the lot's outbox must not come between (FerretDB writes a whole document)
  await s.catalog.kit.flushOutbox();
  await catalogDb
    .collection('lots')
    .updateOne({ _id: String(lot) } as never, { $unset: { label_code: '' } });
  await catalogDb.collection('label_codes').deleteOne({ kind: 'lot', target_id: lot });
  await s.applications.conn
    .collection('lots')
    .updateOne({ id: lot }, { $set: { label_code: null } });
  expect((await scan(stop, 'ABCDEF')).body.code).toBe('UNKNOWN_ITEM');

  await s.catalog.service.warehouse.labelEarlierLots();
  const code = await codeOf(lot);
  await eventually(async () => (await scan(stop, code)).status === 200, {
    what: 'the new code known to the applications service',
  });
});

test('when a scan is sent for a stop that does not exist, with no code, or without a staff token, then 404, 422 or 401', async () => {
  expect((await scan(999999, 'ABCDEF')).status).toBe(404);
  const stop = await bookedStop(await s.createLot(), 'Anna Ohne');
  const empty = await s.http.post(`/api/v1/handovers/${stop}/scan`, { code: ' ' }, driver);
  expect(empty.status).toBe(422);
  const anonymous = await s.http.post(`/api/v1/handovers/${stop}/scan`, { code: 'ABCDEF' });
  expect(anonymous.status).toBe(401);
});

test('when the broker is away during a scan, then the driver gets the answer and handover.item_checked goes out once it is back', async () => {
  const lot = await s.createLot();
  const stop = await bookedStop(lot, 'Marta Broker');
  const code = await codeOf(lot);
  const bus = s.applications.bus;
  const publish = bus.publish.bind(bus);
  bus.publish = async () => {
    throw new Error('broker away (test)');
  };
  try {
    expect((await scan(stop, code)).body).toMatchObject({ match: true });
    await new Promise((r) => setTimeout(r, 600));
    expect(checksOf(stop)).toHaveLength(0);
  } finally {
    bus.publish = publish;
  }
  await eventually(() => checksOf(stop).length === 1, { what: 'the check after the outage' });
});

test('when the catalog is away, then the scan still answers from the lot read model', async () => {
  const lot = await s.createLot();
  const stop = await bookedStop(lot, 'Ivan Away');
  const code = await codeOf(lot);
  await s.stopCatalog();
  expect((await scan(stop, code)).body).toMatchObject({ match: true, lot: { id: lot } });
});
