/**
 * Staff moderation through the gateway with the real catalog: lists, lookups, stats, every
 * allowed and every refused status change, notes, and who may call what.
 */
import { Events } from '@furniture/contracts';
import { outboxPublished, signTestToken } from '@furniture/platform/testing';
import {
  ADMIN,
  VOLUNTEER,
  adminToken,
  applicationBody,
  e164,
  eventually,
  newPhone,
  volunteerToken,
} from './harness';
import { startStack, type Stack } from './stack';

let s: Stack;
beforeAll(async () => {
  s = await startStack();
});
afterAll(async () => {
  await s?.stop();
});

const staff = (token = adminToken()) => ({ token });

async function apply(lotId: number, overrides: Record<string, unknown> = {}): Promise<number> {
  const res = await s.http.post('/api/v1/applications/', applicationBody(lotId, overrides));
  expect(res.status).toBe(201);
  return res.body.id as number;
}

const patchStatus = (id: number, body: object, token = adminToken()) =>
  s.http.patch(`/api/v1/applications/${id}/status`, body, staff(token));

async function getApp(id: number) {
  const res = await s.http.get(`/api/v1/applications/${id}`, staff());
  expect(res.status).toBe(200);
  return res.body;
}

/** Staff approve: 202 while the catalog reserves the lot; answers the approved application. */
async function approve(id: number, note?: string, token = adminToken()) {
  const res = await patchStatus(id, { status: 'approved', note }, token);
  expect(res.status).toBe(202);
  expect(res.body).toMatchObject({ status: 'pending', approval: { state: 'requested' } });
  return eventually(
    async () => {
      const app = await getApp(id);
      return app.status === 'approved' ? app : undefined;
    },
    { what: `application ${id} approved` },
  );
}

/** "[DD.MM.YYYY HH:mm]" of a moment in Berlin time, as the notes carry it. */
function berlin(at: Date): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('de-DE', {
      timeZone: 'Europe/Berlin',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((x) => [x.type, x.value]),
  );
  return `${p.day}.${p.month}.${p.year} ${p.hour}:${p.minute}`;
}

/** The note timestamp is one of the minutes the request ran in. */
function expectStampBetween(stamp: string, from: Date, to: Date) {
  const minutes = new Set<string>();
  for (let t = from.getTime() - 60000; t <= to.getTime() + 60000; t += 30000) {
    minutes.add(berlin(new Date(t)));
  }
  expect(minutes).toContain(stamp);
}

describe('who may call what', () => {
  test("when a partner agency's referrer calls a staff call, then 403 (issue 44)", async () => {
    const lot = await s.createLot();
    const id = await apply(lot);
    const referrer = staff(signTestToken({ id: 9001, role: 'referrer', name: 'Olena' }));
    const calls = [
      () => s.http.get('/api/v1/applications', referrer),
      () => s.http.get('/api/v1/applications/stats', referrer),
      () => s.http.get(`/api/v1/applications/${id}`, referrer),
      () => s.http.patch(`/api/v1/applications/${id}/status`, { status: 'approved' }, referrer),
      () => s.http.patch(`/api/v1/applications/${id}/notes`, { note: 'x' }, referrer),
      () => s.http.get('/api/v1/wishes', referrer),
    ];
    for (const call of calls) {
      const res = await call();
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
  });

  test('when nobody is logged in or the token is forged, then every staff call answers 401; volunteers and admins may moderate', async () => {
    const lot = await s.createLot();
    const id = await apply(lot);
    const calls = [
      () => s.http.get('/api/v1/applications'),
      () => s.http.get('/api/v1/applications/stats'),
      () => s.http.get(`/api/v1/applications/by-phone/${encodeURIComponent('+4917600000000')}`),
      () => s.http.get(`/api/v1/applications/${id}`),
      () => s.http.patch(`/api/v1/applications/${id}/status`, { status: 'approved' }),
      () => s.http.patch(`/api/v1/applications/${id}/notes`, { note: 'x' }),
    ];
    for (const call of calls) {
      const res = await call();
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Authentication required');
    }
    const expired = signTestToken(ADMIN, { expiresInSeconds: -10 });
    expect((await s.http.get('/api/v1/applications', { token: expired })).status).toBe(401);
    expect((await s.http.get('/api/v1/applications', staff(volunteerToken()))).status).toBe(200);
    const note = await s.http.patch(
      `/api/v1/applications/${id}/notes`,
      { note: 'Rückruf vereinbart' },
      staff(volunteerToken()),
    );
    expect(note.status).toBe(200);
    expect(note.body.notes[0]).toMatchObject({ role: 'volunteer', email: VOLUNTEER.email });
  });
});

describe('lists, lookups and stats', () => {
  test('when staff filter by status and lot and page through, then {applications, total} with each lot and queue place', async () => {
    const lot = await s.createLot({ name: { de: 'Regal', uk: 'Полиця' } });
    const ids = [await apply(lot), await apply(lot), await apply(lot)];
    await patchStatus(ids[0]!, { status: 'rejected', note: 'Kein Bedarf mehr' });

    const all = await s.http.get(`/api/v1/applications?lot_id=${lot}`, staff());
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(3);
    expect(all.body.applications.map((a: { id: number }) => a.id)).toEqual([...ids].reverse());
    expect(all.body.applications[0]).toMatchObject({
      id: ids[2],
      queue_position: 2,
      lot: { id: lot, name: { de: 'Regal', uk: 'Полиця' }, status: 'available', photo: null },
    });
    expect(all.body.applications[2]).toMatchObject({ id: ids[0], queue_position: null });
    for (const hidden of ['_id', '__v', '_outbox', 'deleted_at', 'lot_name']) {
      expect(all.body.applications[0]).not.toHaveProperty(hidden);
    }

    const pending = await s.http.get(`/api/v1/applications?lot_id=${lot}&status=pending`, staff());
    expect(pending.body).toMatchObject({ total: 2 });
    const page = await s.http.get(`/api/v1/applications?lot_id=${lot}&limit=1&skip=1`, staff());
    expect(page.body.total).toBe(3);
    expect(page.body.applications.map((a: { id: number }) => a.id)).toEqual([ids[1]]);
    const defaults = await s.http.get('/api/v1/applications?status=&lot_id=', staff());
    expect(defaults.status).toBe(200);
    expect(defaults.body.applications.length).toBeLessThanOrEqual(20);

    for (const bad of ['status=open', 'limit=0', 'limit=101', 'skip=-1', 'lot_id=abc']) {
      const res = await s.http.get(`/api/v1/applications?${bad}`, staff());
      expect(res.status).toBe(422);
    }
  });

  test('when staff look a family up by phone in any form, then all its applications are listed', async () => {
    const phone = newPhone();
    const a = await apply(await s.createLot(), { applicant_phone: phone });
    const b = await apply(await s.createLot(), { applicant_phone: e164(phone) });
    for (const form of [phone, e164(phone), e164(phone).replace('+', '00')]) {
      const res = await s.http.get(
        `/api/v1/applications/by-phone/${encodeURIComponent(form)}`,
        staff(volunteerToken()),
      );
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(2);
      expect(res.body.applications.map((x: { id: number }) => x.id)).toEqual([b, a]);
    }
    expect((await s.http.get('/api/v1/applications/by-phone/not-a-phone', staff())).status).toBe(
      422,
    );
  });

  test('when staff ask for stats, then totals per status and per requested lot with pending counts', async () => {
    const lotA = await s.createLot();
    const lotB = await s.createLot();
    const before = (await s.http.get('/api/v1/applications/stats', staff())).body;
    const a1 = await apply(lotA);
    await apply(lotA);
    const b1 = await apply(lotB);
    await patchStatus(a1, { status: 'rejected', note: 'Doppelt' });
    await approve(b1);

    const res = await s.http.get(
      `/api/v1/applications/stats?lot_ids=${lotA},${lotB},999999`,
      staff(volunteerToken()),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      total: before.total + 3,
      pending: before.pending + 1,
      approved: before.approved + 1,
      rejected: before.rejected + 1,
      completed: before.completed,
      lots: [
        { lot_id: lotA, total: 2, pending: 1, approved: 0 },
        { lot_id: lotB, total: 1, pending: 0, approved: 1 },
        { lot_id: 999999, total: 0, pending: 0, approved: 0 },
      ],
    });
    expect((await s.http.get('/api/v1/applications/stats?lot_ids=1,x', staff())).status).toBe(422);
  });

  test('when an application does not exist, then 404 in the asked language', async () => {
    const res = await s.http.get('/api/v1/applications/999999', {
      token: adminToken(),
      headers: { 'accept-language': 'uk' },
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      code: 'APPLICATION_NOT_FOUND',
      message: 'Заявку не знайдено.',
    });
    expect((await patchStatus(999999, { status: 'approved' })).status).toBe(404);
    expect(
      (await s.http.patch('/api/v1/applications/999999/notes', { note: 'x' }, staff())).status,
    ).toBe(404);
  });
});

describe('status changes (back-office §4)', () => {
  test('when staff approve, complete, reject, reconsider and cancel a reservation, then each is stored with a note line and an event with old and new status and the acting user', async () => {
    // approve (with a note) → complete
    const lot1 = await s.createLot();
    const a = await apply(lot1);
    const t0 = new Date();
    const approved = await approve(a, 'Abholung Samstag 10 Uhr');
    expect(approved.approval).toBeNull();
    const line = approved.notes.at(-1);
    expect(line).toMatchObject({
      role: 'admin',
      email: ADMIN.email,
      action: 'APPROVE',
      comment: 'Abholung Samstag 10 Uhr',
    });
    expectStampBetween(line.timestamp, t0, new Date());
    const approvedEvent = await s.recorder.waitFor(
      Events.ApplicationApproved,
      (e) => e.payload.application_id === a,
    );
    expect(approvedEvent.payload).toMatchObject({
      old_status: 'pending',
      new_status: 'approved',
      reason: 'staff',
      note: 'Abholung Samstag 10 Uhr',
      lot_id: lot1,
    });
    expect(approvedEvent.actor).toMatchObject({ id: ADMIN.id, email: ADMIN.email, role: 'admin' });
    await s.waitForCatalogStatus(lot1, 'reserved');

    const completed = await patchStatus(a, { status: 'completed' }, volunteerToken());
    expect(completed.body.status).toBe('completed');
    expect(completed.body.notes.at(-1)).toMatchObject({
      role: 'volunteer',
      action: 'COMPLETE',
      comment: 'Status: Genehmigt → Abgeschlossen',
    });
    const completedEvent = await s.recorder.waitFor(
      Events.ApplicationCompleted,
      (e) => e.payload.application_id === a,
    );
    expect(completedEvent.payload).toMatchObject({ old_status: 'approved', note: null });
    expect(completedEvent.actor).toMatchObject({ email: VOLUNTEER.email });

    // reject (note required) → reconsider
    const lot2 = await s.createLot();
    const b = await apply(lot2);
    const rejected = await patchStatus(b, { status: 'rejected', note: 'Nicht erreichbar' });
    expect(rejected.body.notes.at(-1)).toMatchObject({
      action: 'REJECT',
      comment: 'Nicht erreichbar',
    });
    await s.recorder.waitFor(
      Events.ApplicationRejected,
      (e) => e.payload.application_id === b && e.payload.note === 'Nicht erreichbar',
    );
    const reconsidered = await patchStatus(b, { status: 'pending' });
    expect(reconsidered.body).toMatchObject({ status: 'pending', queue_position: 1 });
    expect(reconsidered.body.notes.at(-1).action).toBe('RECONSIDER');
    await s.recorder.waitFor(
      Events.ApplicationReconsidered,
      (e) => e.payload.application_id === b && e.payload.old_status === 'rejected',
    );

    // approve → cancel reservation
    const approvedB = await approve(b);
    expect(approvedB.notes.at(-1).comment).toBe('Status: Ausstehend → Genehmigt');
    await s.waitForCatalogStatus(lot2, 'reserved');
    const cancelled = await patchStatus(b, {
      status: 'pending',
      note: 'Familie meldet sich nicht',
    });
    expect(cancelled.body.status).toBe('pending');
    expect(cancelled.body.notes.at(-1)).toMatchObject({
      action: 'CANCEL_RESERVATION',
      comment: 'Familie meldet sich nicht',
    });
    const cancelEvent = await s.recorder.waitFor(
      Events.ApplicationReservationCancelled,
      (e) => e.payload.application_id === b,
    );
    expect(cancelEvent.payload).toMatchObject({
      old_status: 'approved',
      new_status: 'pending',
      reason: 'staff',
    });
    await s.waitForCatalogStatus(lot2, 'available');
    expect((await getApp(b)).internal_notes.split('\n')).toHaveLength(4);
  });

  test('when a transition is not allowed, then 409 names it and nothing changes', async () => {
    const lot = await s.createLot();
    const pending = await apply(lot);
    const rejected = await apply(lot);
    await patchStatus(rejected, { status: 'rejected', note: 'Abgelehnt' });

    const refused: [number, string, string][] = [
      [pending, 'pending', 'APPLICATION_TRANSITION_NOT_ALLOWED'],
      [pending, 'completed', 'APPLICATION_TRANSITION_NOT_ALLOWED'],
      [rejected, 'rejected', 'APPLICATION_TRANSITION_NOT_ALLOWED'],
      [rejected, 'approved', 'APPLICATION_TRANSITION_NOT_ALLOWED'],
      [rejected, 'completed', 'APPLICATION_TRANSITION_NOT_ALLOWED'],
    ];
    for (const [id, status, code] of refused) {
      const res = await patchStatus(id, { status, note: 'Versuch' });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe(code);
    }
    const msg = await patchStatus(pending, { status: 'completed' });
    expect(msg.body.message).toBe(
      'Der Status einer Bewerbung kann nicht von „pending“ zu „completed“ geändert werden.',
    );

    const approved = await apply(await s.createLot());
    await approve(approved);
    for (const status of ['approved', 'rejected']) {
      const res = await patchStatus(approved, { status, note: 'Versuch' });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('APPLICATION_TRANSITION_NOT_ALLOWED');
    }
    await patchStatus(approved, { status: 'completed' });
    for (const status of ['pending', 'approved', 'rejected', 'completed']) {
      const res = await patchStatus(approved, { status, note: 'Versuch' });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({
        code: 'APPLICATION_COMPLETED',
        message: 'Abgeschlossene Bewerbungen können nicht mehr geändert werden.',
      });
    }
    expect((await getApp(pending)).notes).toHaveLength(0);
    expect((await getApp(rejected)).notes).toHaveLength(1);
  });

  test('when the status is unknown or the note too long, then 422', async () => {
    const id = await apply(await s.createLot());
    const unknown = await patchStatus(id, { status: 'archived' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0]).toMatchObject({
      loc: ['body', 'status'],
      type: 'invalid_status',
    });
    const long = await patchStatus(id, { status: 'approved', note: 'x'.repeat(1001) });
    expect(long.status).toBe(422);
    expect(long.body.detail[0]).toMatchObject({ type: 'note_too_long' });
    expect((await getApp(id)).status).toBe('pending');
  });

  test('when another application of the lot is approved, then approving is refused until its reservation is cancelled', async () => {
    const lot = await s.createLot();
    const first = await apply(lot);
    const second = await apply(lot);
    const other = await apply(lot);
    // while the first approval is only requested, a second request is refused already
    expect((await patchStatus(first, { status: 'approved' })).status).toBe(202);
    const early = await patchStatus(other, { status: 'approved' });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('LOT_ALREADY_RESERVED');
    await eventually(async () => (await getApp(first)).status === 'approved', {
      what: 'first approved',
    });
    // the rivals were rejected by the reservation; reconsidered, they still cannot be approved
    expect((await patchStatus(second, { status: 'pending' })).status).toBe(200);
    const refused = await patchStatus(second, { status: 'approved' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'LOT_ALREADY_RESERVED',
      message:
        'Für dieses Lot ist schon eine andere Bewerbung genehmigt. Heben Sie zuerst deren Reservierung auf.',
    });
    expect((await getApp(second)).status).toBe('pending');
    // the staff list names the holder on every open application of the lot, also when the
    // approved one is filtered out (the back-office hides approve and reject there)
    const pending = await s.http.get(`/api/v1/applications?status=pending&lot_id=${lot}`, staff());
    expect(pending.body.applications.map((a: { id: number }) => a.id)).toEqual([second]);
    expect(pending.body.applications[0].lot.held_by).toEqual({
      id: first,
      applicant_name: applicationBody(lot).applicant_name,
    });
    const free = await s.createLot();
    const waiting = await apply(free);
    const list = await s.http.get(`/api/v1/applications?lot_id=${free}`, staff());
    expect(list.body.applications.find((a: { id: number }) => a.id === waiting).lot.held_by).toBe(
      null,
    );
  });
});

describe('notes (PATCH /applications/{id}/notes)', () => {
  test('when staff add a note, then the server writes its own time, role and e-mail in front, whatever the client claims', async () => {
    const id = await apply(await s.createLot());
    const t0 = new Date();
    const res = await s.http.patch(
      `/api/v1/applications/${id}/notes`,
      {
        internal_notes:
          '[01.01.2000 00:00] admin: chef@evil.example | CONTACT | Per WhatsApp erreicht\nkommt Montag',
      },
      staff(volunteerToken()),
    );
    expect(res.status).toBe(200);
    const note = res.body.notes.at(-1);
    expect(note).toMatchObject({
      role: 'volunteer',
      email: VOLUNTEER.email,
      action: 'CONTACT',
      comment: 'Per WhatsApp erreicht kommt Montag',
    });
    expectStampBetween(note.timestamp, t0, new Date());
    expect(note.line).toBe(
      `[${note.timestamp}] volunteer: ${VOLUNTEER.email} | CONTACT | Per WhatsApp erreicht kommt Montag`,
    );
    expect(res.body.internal_notes).toBe(note.line);

    const plain = await s.http.patch(
      `/api/v1/applications/${id}/notes`,
      { note: 'Zweite Notiz' },
      staff(),
    );
    expect(plain.body.notes.map((n: { comment: string }) => n.comment)).toEqual([
      'Per WhatsApp erreicht kommt Montag',
      'Zweite Notiz',
    ]);
    expect(plain.body.notes[1]).toMatchObject({
      role: 'admin',
      email: ADMIN.email,
      action: 'NOTE_ADD',
    });
    expect(plain.body.internal_notes.split('\n')).toHaveLength(2);

    const event = await s.recorder.waitFor(
      Events.ApplicationNoteAdded,
      (e) => e.payload.application_id === id && e.payload.note === 'Zweite Notiz',
    );
    expect(event.actor).toMatchObject({ email: ADMIN.email, role: 'admin' });
  });

  test('when a note is empty or longer than 1000 characters, then 422; exactly 1000 is fine', async () => {
    const id = await apply(await s.createLot());
    for (const body of [
      {},
      { note: '' },
      { note: ' \n ' },
      { internal_notes: '[x] admin: a@b | NOTE_ADD |   ' },
    ]) {
      const res = await s.http.patch(`/api/v1/applications/${id}/notes`, body, staff());
      expect(res.status).toBe(422);
      expect(res.body.detail[0]).toMatchObject({
        msg: 'Notiz darf nicht leer sein',
        type: 'note_empty',
      });
    }
    const long = await s.http.patch(
      `/api/v1/applications/${id}/notes`,
      { note: 'x'.repeat(1001) },
      { token: adminToken(), headers: { 'accept-language': 'uk' } },
    );
    expect(long.status).toBe(422);
    expect(long.body.detail[0]).toMatchObject({
      loc: ['body', 'note'],
      msg: 'Нотатка може містити не більше 1000 символів',
      type: 'note_too_long',
    });
    const exact = await s.http.patch(
      `/api/v1/applications/${id}/notes`,
      { note: 'y'.repeat(1000) },
      staff(),
    );
    expect(exact.status).toBe(200);
    expect(exact.body.notes[0].comment).toHaveLength(1000);
    await eventually(async () => (await getApp(id)).notes.length === 1);
  });
});

describe('what the impact counters learn from a handover (issue 19)', () => {
  test('when a family receives its first and then a second lot, then application.completed carries the category, when it applied and whether it was its first handover', async () => {
    const phone = newPhone();
    const completedEvent = async () => {
      const lot = await s.createLot({ category_id: 2 });
      const id = await apply(lot, { applicant_phone: phone });
      await approve(id);
      expect((await patchStatus(id, { status: 'completed' })).status).toBe(200);
      const app = await getApp(id);
      const event = await s.recorder.waitFor(
        Events.ApplicationCompleted,
        (e) => e.payload.application_id === id,
      );
      return { app, event };
    };
    const first = await completedEvent();
    expect(first.event.payload).toMatchObject({
      category_id: 2,
      applied_at: first.app.created_at,
      first_handover: true,
    });
    const second = await completedEvent();
    expect(second.event.payload.first_handover).toBe(false);
  });
});

describe("reject, then note (the specification's two calls)", () => {
  const addNote = (id: number, body: object, token = adminToken()) =>
    s.http.patch(`/api/v1/applications/${id}/notes`, body, staff(token));
  const rejectedEvents = (id: number) =>
    s.recorder.of(Events.ApplicationRejected).filter((e) => e.payload.application_id === id);

  test("when staff reject without a note and send the note right after, then it becomes the rejection's comment, and the family is told once", async () => {
    const id = await apply(await s.createLot());
    const rejected = await patchStatus(id, { status: 'rejected' });
    expect(rejected.status).toBe(200);
    expect(rejected.body.status).toBe('rejected');
    expect(rejected.body.notes).toHaveLength(1);
    expect(rejected.body.notes[0]).toMatchObject({
      action: 'REJECT',
      comment: 'Status: Ausstehend → Abgelehnt',
    });
    expect(rejected.body).not.toHaveProperty('note_open');

    const noted = await addNote(id, {
      internal_notes: '[01.01.2020 10:00] admin: x | REJECT | Kein Bedarf mehr',
    });
    expect(noted.status).toBe(200);
    expect(noted.body.notes).toHaveLength(1);
    expect(noted.body.notes[0]).toMatchObject({
      action: 'REJECT',
      email: ADMIN.email,
      comment: 'Kein Bedarf mehr',
      timestamp: rejected.body.notes[0].timestamp,
    });
    expect(noted.body.internal_notes.split('\n')).toHaveLength(1);
    const note = await s.recorder.waitFor(
      Events.ApplicationNoteAdded,
      (e) => e.payload.application_id === id,
    );
    expect(note.payload).toMatchObject({ note: 'Kein Bedarf mehr', status_action: 'REJECT' });
    // one rejection event (one mail to the family), none for the note
    await new Promise((r) => setTimeout(r, 300));
    expect(rejectedEvents(id)).toHaveLength(1);

    // the change is complete: a further note is a line of its own
    const more = await addNote(id, { note: 'Familie informiert' });
    expect(more.body.notes).toHaveLength(2);
    expect(more.body.notes[1]).toMatchObject({
      action: 'NOTE_ADD',
      comment: 'Familie informiert',
    });
  });

  test('when the note comes from someone else, too late, after another change, or as a contact, then it is a line of its own', async () => {
    const lot = await s.createLot();
    const apps = s.applications.conn.collection('applications');

    const other = await apply(lot);
    await patchStatus(other, { status: 'rejected' });
    const byVolunteer = await addNote(other, { note: 'Andere Person' }, volunteerToken());
    expect(byVolunteer.body.notes).toHaveLength(2);

    const late = await apply(lot);
    await patchStatus(late, { status: 'rejected' });
    // the relay's write of the published outbox first: on FerretDB a write of the same document
    // at the same moment can undo the one below
    await eventually(() => outboxPublished(apps, { id: late }), { what: 'rejection published' });
    await apps.updateOne(
      { id: late },
      { $set: { 'note_open.at': new Date(Date.now() - 121_000).toISOString() } },
    );
    expect((await addNote(late, { note: 'Zu spät' })).body.notes).toHaveLength(2);

    const between = await apply(lot);
    await patchStatus(between, { status: 'rejected' });
    await addNote(between, { note: 'Dazwischen' }, volunteerToken());
    const after = await addNote(between, { note: 'Nachher' });
    expect(after.body.notes.map((n: { comment: string }) => n.comment)).toEqual([
      'Status: Ausstehend → Abgelehnt',
      'Dazwischen',
      'Nachher',
    ]);

    const reconsidered = await apply(lot);
    await patchStatus(reconsidered, { status: 'rejected' });
    await patchStatus(reconsidered, { status: 'pending' });
    const toReconsider = await addNote(reconsidered, { note: 'Zum Wiederaufnehmen' });
    expect(toReconsider.body.notes.map((n: { action: string }) => n.action)).toEqual([
      'REJECT',
      'RECONSIDER',
    ]);
    expect(toReconsider.body.notes[1].comment).toBe('Zum Wiederaufnehmen');

    const contact = await apply(lot);
    await patchStatus(contact, { status: 'rejected' });
    const called = await addNote(contact, { note: 'Angerufen', action: 'CONTACT' });
    expect(called.body.notes.map((n: { action: string }) => n.action)).toEqual([
      'REJECT',
      'CONTACT',
    ]);
  });

  test('when the rejection carries its note, then a later note is a line of its own', async () => {
    const id = await apply(await s.createLot());
    await patchStatus(id, { status: 'rejected', note: 'Kein Bedarf mehr' });
    const res = await addNote(id, { note: 'Nachtrag' });
    expect(res.body.notes.map((n: { comment: string }) => n.comment)).toEqual([
      'Kein Bedarf mehr',
      'Nachtrag',
    ]);
  });
});
