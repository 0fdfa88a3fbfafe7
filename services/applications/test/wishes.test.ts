/** Wishes through the gateway: anyone sends one, staff list, read and move them along. */
import { Events } from '@furniture/contracts';
import { ADMIN, VOLUNTEER, adminToken, volunteerToken, wishBody } from './harness';
import { startStack, type Stack } from './stack';

let s: Stack;
beforeAll(async () => {
  s = await startStack();
});
afterAll(async () => {
  await s?.stop();
});

async function createWish(overrides: Record<string, unknown> = {}): Promise<number> {
  const res = await s.http.post('/api/v1/wishes/', wishBody(overrides));
  expect(res.status).toBe(201);
  return res.body.id as number;
}

const setStatus = (
  id: number,
  status: string | undefined,
  body: object = {},
  token = adminToken(),
) =>
  s.http.patch(`/api/v1/wishes/${id}/status${status ? `?status=${status}` : ''}`, body, { token });

describe('sending a wish (public)', () => {
  test('when the form is complete, then 201 {id, status active, created_at}, the wish is stored and wish.created is emitted', async () => {
    const res = await s.http.post(
      '/api/v1/wishes/',
      wishBody({ applicant_whatsapp: '0157 1234 5678', furniture_category: 'beds-matresses' }),
      { headers: { 'accept-language': 'uk' } },
    );
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['created_at', 'id', 'status']);
    expect(res.body.status).toBe('active');
    const wish = await s.http.get(`/api/v1/wishes/${res.body.id}`, { token: adminToken() });
    expect(wish.body).toMatchObject({
      id: res.body.id,
      status: 'active',
      admin_notes: null,
      applicant_name: 'Iryna Shevchenko',
      applicant_whatsapp: '+4915712345678',
      applicant_whatsapp_raw: '0157 1234 5678',
      applicant_email: null,
      furniture_category: 2,
      language: 'uk',
    });
    expect(wish.body.created_at).toBe(res.body.created_at);
    const event = await s.recorder.waitFor(
      Events.WishCreated,
      (e) => e.payload.wish_id === res.body.id,
    );
    expect(event.payload).toMatchObject({ furniture_category: 2, status: 'active' });
  });

  test('when the form breaks the rules of public-site §5, then 422 names every field in the asked language', async () => {
    const res = await s.http.post('/api/v1/wishes/', {
      applicant_name: ' A ',
      applicant_whatsapp: '12-ab',
      furniture_description: 'zu kurz',
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.detail).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'applicant_name'], msg: 'Mindestens 2 Zeichen', type: 'too_short' },
        {
          loc: ['body', 'applicant_whatsapp'],
          msg: 'Ungültige WhatsApp-Nummer',
          type: 'invalid_whatsapp',
        },
        {
          loc: ['body', 'furniture_category'],
          msg: 'Dieses Feld ist erforderlich',
          type: 'required',
        },
        { loc: ['body', 'furniture_description'], msg: 'Mindestens 10 Zeichen', type: 'too_short' },
      ]),
    );
    expect(res.body.detail).toHaveLength(4);

    const uk = await s.http.post(
      '/api/v1/wishes/',
      wishBody({ applicant_name: 'x'.repeat(101), furniture_description: 'y'.repeat(501) }),
      { headers: { 'accept-language': 'uk' } },
    );
    expect(uk.status).toBe(422);
    expect(uk.body.detail).toEqual([
      { loc: ['body', 'applicant_name'], msg: 'Не більше 100 символів', type: 'too_long' },
      { loc: ['body', 'furniture_description'], msg: 'Не більше 500 символів', type: 'too_long' },
    ]);

    const unknownCategory = await s.http.post(
      '/api/v1/wishes/',
      wishBody({ furniture_category: 'spaceships' }),
    );
    expect(unknownCategory.status).toBe(422);
    expect(unknownCategory.body.detail[0]).toMatchObject({
      loc: ['body', 'furniture_category'],
      type: 'invalid_value',
    });
  });

  test('when the hidden honeypot field is filled, then the answer looks like a success but nothing is stored', async () => {
    const before = await s.http.get('/api/v1/wishes?limit=1', { token: adminToken() });
    const res = await s.http.post('/api/v1/wishes/', wishBody({ website: 'http://spam.example' }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'active' });
    expect(
      (await s.http.get(`/api/v1/wishes/${res.body.id}`, { token: adminToken() })).status,
    ).toBe(404);
    const after = await s.http.get('/api/v1/wishes?limit=1', { token: adminToken() });
    expect(after.body.total).toBe(before.body.total);
  });
});

describe('wishes for staff', () => {
  test('when staff filter by status, category and search and page through, then {wishes, total} match', async () => {
    const marker = `Marker${Date.now()}`;
    const a = await createWish({
      furniture_category: 5,
      furniture_description: `Küchentisch ${marker}`,
    });
    const b = await createWish({
      furniture_category: 5,
      furniture_description: `Küchenschrank ${marker}`,
    });
    const c = await createWish({
      furniture_category: 1,
      furniture_description: `Sofa für ${marker}`,
    });
    expect((await setStatus(b, 'cancelled')).status).toBe(200);

    const all = await s.http.get(`/api/v1/wishes?search=${marker}`, { token: volunteerToken() });
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(3);
    expect(all.body.wishes.map((w: { id: number }) => w.id)).toEqual([c, b, a]); // newest first

    const kitchen = await s.http.get(`/api/v1/wishes?search=${marker}&category=5`, {
      token: adminToken(),
    });
    expect(kitchen.body.wishes.map((w: { id: number }) => w.id)).toEqual([b, a]);
    const bySlug = await s.http.get(`/api/v1/wishes?search=${marker}&category=kitchen-furniture`, {
      token: adminToken(),
    });
    expect(bySlug.body.total).toBe(2);
    const active = await s.http.get(`/api/v1/wishes?search=${marker}&status=active&category=5`, {
      token: adminToken(),
    });
    expect(active.body.wishes.map((w: { id: number }) => w.id)).toEqual([a]);
    const page2 = await s.http.get(`/api/v1/wishes?search=${marker}&limit=2&skip=2`, {
      token: adminToken(),
    });
    expect(page2.body).toMatchObject({ total: 3, wishes: [expect.objectContaining({ id: a })] });
    // a search with regex characters is taken literally
    const literal = await s.http.get(`/api/v1/wishes?search=${encodeURIComponent('.*')}`, {
      token: adminToken(),
    });
    expect(literal.body.total).toBe(0);
    const bad = await s.http.get('/api/v1/wishes?status=pending', { token: adminToken() });
    expect(bad.status).toBe(422);
  });

  test('when a wish does not exist, then 404 "Wunsch nicht gefunden" (Ukrainian on request)', async () => {
    const de = await s.http.get('/api/v1/wishes/999999', { token: adminToken() });
    expect(de.status).toBe(404);
    expect(de.body).toMatchObject({ code: 'WISH_NOT_FOUND', detail: 'Wunsch nicht gefunden' });
    const uk = await s.http.get('/api/v1/wishes/999999', {
      token: adminToken(),
      headers: { 'accept-language': 'uk' },
    });
    expect(uk.body.message).toBe('Побажання не знайдено');
  });

  test('when nobody is logged in, then every staff wish call answers 401 "Authentication required"', async () => {
    const id = await createWish();
    for (const res of [
      await s.http.get('/api/v1/wishes'),
      await s.http.get(`/api/v1/wishes/${id}`),
      await s.http.patch(`/api/v1/wishes/${id}/status?status=fulfilled`, {}),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Authentication required');
    }
  });
});

describe('wish status (back-office §4)', () => {
  test('when staff move a wish active → cancelled → active → fulfilled, then each step is stored with its notes and an event with old and new values', async () => {
    const id = await createWish();
    const cancelled = await setStatus(id, 'cancelled', { admin_notes: 'Familie verzogen' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', admin_notes: 'Familie verzogen' });
    const event = await s.recorder.waitFor(
      Events.WishStatusChanged,
      (e) => e.payload.wish_id === id && e.payload.new_status === 'cancelled',
    );
    expect(event.payload).toMatchObject({
      old_status: 'active',
      admin_notes: 'Familie verzogen',
      old_admin_notes: null,
    });
    expect(event.actor).toMatchObject({ id: ADMIN.id, email: ADMIN.email, role: 'admin' });

    const again = await setStatus(id, 'active', {}, volunteerToken());
    expect(again.body).toMatchObject({ status: 'active', admin_notes: 'Familie verzogen' });
    const volunteerEvent = await s.recorder.waitFor(
      Events.WishStatusChanged,
      (e) => e.payload.wish_id === id && e.payload.new_status === 'active',
    );
    expect(volunteerEvent.actor).toMatchObject({ email: VOLUNTEER.email, role: 'volunteer' });

    // notes alone may change; an empty text clears them
    const notes = await setStatus(id, 'active', { admin_notes: '' });
    expect(notes.body).toMatchObject({ status: 'active', admin_notes: null });

    const done = await setStatus(id, 'fulfilled', { notes: 'Bett übergeben' });
    expect(done.body).toMatchObject({ status: 'fulfilled', admin_notes: 'Bett übergeben' });
    expect(Date.parse(done.body.updated_at)).toBeGreaterThanOrEqual(
      Date.parse(done.body.created_at),
    );
  });

  test('when a transition is not allowed, then 409 says so; a fulfilled wish cannot be changed at all', async () => {
    const id = await createWish();
    expect((await setStatus(id, 'cancelled')).status).toBe(200);
    const refused = await setStatus(id, 'fulfilled');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'WISH_TRANSITION_NOT_ALLOWED',
      message:
        'Der Status eines Wunsches kann nicht von „cancelled“ zu „fulfilled“ geändert werden.',
    });

    const done = await createWish();
    expect((await setStatus(done, 'fulfilled')).status).toBe(200);
    for (const [status, body] of [
      ['active', {}],
      ['cancelled', {}],
      ['fulfilled', { admin_notes: 'noch eine Notiz' }],
    ] as const) {
      const res = await setStatus(done, status, body);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({
        code: 'WISH_FULFILLED',
        message: 'Erfüllte Wünsche können nicht mehr geändert werden.',
      });
    }
    // saving without a change is no change (the dialog closes)
    expect((await setStatus(done, 'fulfilled')).status).toBe(200);
  });

  test('when the status is missing or unknown, or the wish unknown, then 422 / 404', async () => {
    const id = await createWish();
    const missing = await setStatus(id, undefined, {});
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0]).toMatchObject({ loc: ['query', 'status'], type: 'required' });
    const unknown = await setStatus(id, 'archived');
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0]).toMatchObject({ type: 'invalid_status' });
    const tooLong = await setStatus(id, 'cancelled', { admin_notes: 'x'.repeat(1001) });
    expect(tooLong.status).toBe(422);
    expect((await setStatus(999999, 'cancelled')).status).toBe(404);
    // the status may also travel in the body
    expect((await setStatus(id, undefined, { status: 'cancelled' })).body.status).toBe('cancelled');
  });
});
