/**
 * The whole approval chain across services, through the real gateway: staff approve →
 * the catalog reserves the lot → the rivals are rejected → the application is approved → every
 * family gets its mail in its language → the activity log tells who did what; then the
 * reservation is cancelled and the rivals are back in the queue, mailed and logged.
 */
import { Events } from '@furniture/contracts';
import { eventually, uniqueName } from '@furniture/platform/testing';
import { startSystem, type System } from '../src/stack';
import { mailsTo, waitForMails } from '../src/mail';

let s: System;
beforeAll(async () => {
  s = await startSystem();
});
afterAll(async () => {
  await s?.stop();
});

let phone = 3_000_000;
function family(language: 'de' | 'uk') {
  phone += 1;
  return {
    applicant_name: language === 'de' ? 'Familie Berger' : 'Олена Коваленко',
    applicant_phone: `0176 ${String(phone).padStart(8, '0')}`,
    applicant_whatsapp: null,
    applicant_email: `${uniqueName('family')}@example.org`,
    applicant_city: 'Berlin',
    applicant_address: 'Sonnenallee 1',
    needs_delivery_help: false,
    language,
  };
}

async function apply(lotId: number, f: ReturnType<typeof family>): Promise<number> {
  const res = await s.http.post('/api/v1/applications/', { ...f, lot_id: lotId });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

const statusOf = async (id: number) =>
  (await s.http.get(`/api/v1/applications/${id}`, s.staff())).body.status as string;

async function activityOf(targetId: number) {
  const res = await s.http.get(
    `/api/v1/activity-logs?target_type=application&target_id=${targetId}&limit=50`,
    s.staff(),
  );
  expect(res.status).toBe(200);
  return res.body.data as {
    action_type: string;
    user_email: string | null;
    details: Record<string, unknown>;
  }[];
}

test('when staff approve one of three applications, then the lot is reserved, the others rejected, the winner approved, each family mailed in its language and every step logged; when the reservation is cancelled, the rivals are back in the queue, mailed and logged', async () => {
  const lot = await s.createLot();
  const families = [family('de'), family('uk'), family('de')];
  const [winner, rivalA, rivalB] = [
    await apply(lot, families[0]!),
    await apply(lot, families[1]!),
    await apply(lot, families[2]!),
  ];

  const approve = await s.http.patch(
    `/api/v1/applications/${winner}/status`,
    { status: 'approved', note: 'Abholung Freitag' },
    s.staff(),
  );
  expect(approve.status).toBe(202);
  expect(approve.body).toMatchObject({ status: 'pending', approval: { state: 'requested' } });

  // reserve → reject → approve
  await eventually(async () => (await statusOf(winner)) === 'approved', { what: 'approved' });
  expect(await statusOf(rivalA)).toBe('rejected');
  expect(await statusOf(rivalB)).toBe('rejected');
  const lotNow = await s.http.get(`/api/v1/lots/${lot}`, s.staff());
  expect(lotNow.body.status).toBe('reserved');

  // mail: each family once per change, in its language
  await waitForMails(families[0]!.applicant_email, [
    /^Bewerbung Nr\. \d+ eingegangen/,
    /^Gute Nachricht/,
  ]);
  await waitForMails(families[1]!.applicant_email, [
    /^Заявку № \d+ отримано/,
    /^Ваша заявка № \d+: на жаль/,
  ]);
  await waitForMails(families[2]!.applicant_email, [/eingegangen/, /leider keine Zusage/]);

  // activity: the approval and the rejections it caused, both in the staff member's name
  await eventually(
    async () => (await activityOf(winner)).some((e) => e.action_type === 'APPROVE'),
    {
      what: 'APPROVE logged',
    },
  );
  const approvedEntry = (await activityOf(winner)).find((e) => e.action_type === 'APPROVE')!;
  expect(approvedEntry.user_email).toBe('anna@example.org');
  expect(approvedEntry.details).toMatchObject({ note: 'Abholung Freitag', new_status: 'approved' });
  for (const id of [rivalA, rivalB]) {
    const rejected = await eventually(
      async () => (await activityOf(id)).find((e) => e.action_type === 'REJECT'),
      { what: `REJECT of ${id} logged` },
    );
    // caused by the staff member's approval, written by the system
    expect(rejected.user_email).toBe('anna@example.org');
    expect(rejected.details).toMatchObject({ reason: 'competitor_approved' });
  }

  // the reservation is cancelled: the lot is free again and the rivals are back
  const cancel = await s.http.patch(
    `/api/v1/applications/${winner}/status`,
    { status: 'pending', note: 'Familie hat abgesagt' },
    s.staff(),
  );
  expect(cancel.status).toBe(200);
  await eventually(async () => (await statusOf(rivalA)) === 'pending', { what: 'rival A back' });
  await eventually(async () => (await statusOf(rivalB)) === 'pending', { what: 'rival B back' });
  expect((await s.http.get(`/api/v1/lots/${lot}`, s.staff())).body.status).toBe('available');
  await waitForMails(families[1]!.applicant_email, [/^Знову в черзі/]);
  await waitForMails(families[2]!.applicant_email, [/^Wieder in der Warteschlange/]);
  await waitForMails(families[0]!.applicant_email, [/^Reservierung aufgehoben/]);
  const reconsidered = await eventually(
    async () => (await activityOf(rivalA)).find((e) => e.action_type === 'RECONSIDER'),
    { what: 'RECONSIDER logged' },
  );
  expect(reconsidered.details).toMatchObject({ reason: 'reservation_cancelled' });

  // nobody got anything twice
  for (const f of families) {
    const mails = await mailsTo(f.applicant_email);
    expect(new Set(mails.map((m) => m.MessageID)).size).toBe(mails.length);
  }
  expect(
    s.recorder.of(Events.ApplicationApproved).filter((e) => e.payload.lot_id === lot),
  ).toHaveLength(1);
});
