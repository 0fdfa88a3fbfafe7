/** Wishes through the gateway: anyone sends one, staff list, read and move them along. */
import { Events } from '@furniture/contracts';
import { ADMIN, VOLUNTEER, adminToken, newPhone, volunteerToken, wishBody } from './harness';
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

describe('wishes matched to lots (issue 19)', () => {
  let categories = 0;
  /** A category of its own, so that other tests' wishes do not match. */
  async function newCategory(): Promise<number> {
    const res = await s.http.post(
      '/api/v1/categories/',
      { name: { de: `Kinderbetten ${++categories}`, uk: `Дитячі ліжка ${categories}` } },
      { token: adminToken() },
    );
    expect(res.status).toBe(201);
    return res.body.data.id as number;
  }

  test('when a lot becomes available in a category with active wishes, then the lot shows them oldest first and each wish lists the lot', async () => {
    const category = await newCategory();
    const older = await createWish({
      furniture_category: category,
      furniture_description: 'Kinderbett 70x140 für unsere Tochter',
    });
    const newer = await createWish({
      applicant_whatsapp: newPhone(),
      furniture_category: category,
    });
    const done = await createWish({ applicant_whatsapp: newPhone(), furniture_category: category });
    expect((await setStatus(done, 'fulfilled')).status).toBe(200);
    const elsewhere = await createWish({ applicant_whatsapp: newPhone(), furniture_category: 1 });

    const reserved = await s.createLot({ category_id: category, status: 'reserved' });
    const none = await s.http.get(`/api/v1/lots/${reserved}/wish-matches`, {
      token: volunteerToken(),
    });
    expect(none.status).toBe(200);
    expect(none.body.wishes).toEqual([]);

    const lot = await s.createLot({
      category_id: category,
      name: { de: 'Kinderbett 70x140', uk: 'Дитяче ліжко 70x140' },
    });
    const matches = await s.http.get(`/api/v1/lots/${lot}/wish-matches`, {
      token: volunteerToken(),
    });
    expect(matches.status).toBe(200);
    expect(matches.body.wishes.map((w: { id: number }) => w.id)).toEqual([older, newer]);
    expect(matches.body.wishes[0].furniture_description).toBe(
      'Kinderbett 70x140 für unsere Tochter',
    );
    expect((await s.http.get(`/api/v1/lots/${lot}/wish-matches`)).status).toBe(401);
    expect(
      (await s.http.get('/api/v1/lots/999999/wish-matches', { token: adminToken() })).status,
    ).toBe(404);

    const list = await s.http.get(`/api/v1/wishes?category=${category}&per_page=50`, {
      token: adminToken(),
    });
    const byId = new Map(list.body.wishes.map((w: { id: number }) => [w.id, w]));
    expect(byId.get(older)).toMatchObject({
      matching_lots: [{ id: lot, name: { de: 'Kinderbett 70x140', uk: 'Дитяче ліжко 70x140' } }],
    });
    expect(byId.get(done)).not.toHaveProperty('matching_lots');
    const detail = await s.http.get(`/api/v1/wishes/${newer}`, { token: adminToken() });
    expect(detail.body.matching_lots.map((l: { id: number }) => l.id)).toEqual([lot]);
    const other = await s.http.get(`/api/v1/wishes/${elsewhere}`, { token: adminToken() });
    expect(other.body.status).toBe('active');
  });

  test('when staff notify a wisher, then a family with an address is mailed in its language, one without gets the WhatsApp channel; both wishes get a note and wish.notified is logged', async () => {
    const category = await newCategory();
    const withMail = await s.http.post(
      '/api/v1/wishes/',
      wishBody({
        applicant_whatsapp: newPhone(),
        furniture_category: category,
        applicant_email: 'iryna@example.org',
      }),
      { headers: { 'accept-language': 'uk' } },
    );
    expect(withMail.status).toBe(201);
    const withoutMail = await createWish({
      applicant_whatsapp: newPhone(),
      furniture_category: category,
      language: 'de',
    });
    const lot = await s.createLot({ category_id: category });

    const mailed = await s.http.post(
      `/api/v1/wishes/${withMail.body.id}/notify`,
      { lot_id: lot },
      { token: volunteerToken() },
    );
    expect(mailed.status).toBe(200);
    expect(mailed.body.channel).toBe('email');
    expect(mailed.body.wish.admin_notes).toMatch(
      new RegExp(
        `${VOLUNTEER.email}: über Lot #${lot} \\(„Ecksofa grau“\\) per E-Mail informiert$`,
      ),
    );
    const event = await s.recorder.waitFor(
      Events.WishNotified,
      (e) => e.payload.wish_id === withMail.body.id,
    );
    expect(event.payload).toMatchObject({
      lot_id: lot,
      applicant_email: 'iryna@example.org',
      language: 'uk',
      channel: 'email',
      lot_name: { de: 'Ecksofa grau', uk: 'Кутовий диван сірий' },
    });
    expect(event.actor).toMatchObject({ id: VOLUNTEER.id });

    const whatsapp = await s.http.post(
      `/api/v1/wishes/${withoutMail}/notify`,
      { lot_id: lot },
      { token: adminToken() },
    );
    expect(whatsapp.status).toBe(200);
    expect(whatsapp.body.channel).toBe('whatsapp');
    expect(whatsapp.body.wish.admin_notes).toContain('per WhatsApp informiert');
    const second = await s.recorder.waitFor(
      Events.WishNotified,
      (e) => e.payload.wish_id === withoutMail,
    );
    expect(second.payload).toMatchObject({ channel: 'whatsapp', language: 'de' });
  });

  test('when the lot does not match the wish or the wish is closed, then 409 and no note', async () => {
    const category = await newCategory();
    const wish = await createWish({ applicant_whatsapp: newPhone(), furniture_category: category });
    const otherLot = await s.createLot({ category_id: 1 });
    const wrong = await s.http.post(
      `/api/v1/wishes/${wish}/notify`,
      { lot_id: otherLot },
      { token: adminToken() },
    );
    expect(wrong.status).toBe(409);
    expect(wrong.body.code).toBe('WISH_LOT_NOT_MATCHING');
    expect(wrong.body.message).toEqual(expect.any(String));
    const unknownLot = await s.http.post(
      `/api/v1/wishes/${wish}/notify`,
      { lot_id: 987654 },
      { token: adminToken() },
    );
    expect(unknownLot.status).toBe(409);
    const bad = await s.http.post(
      `/api/v1/wishes/${wish}/notify`,
      { lot_id: 'abc' },
      { token: adminToken() },
    );
    expect(bad.status).toBe(422);
    const lot = await s.createLot({ category_id: category });
    expect((await setStatus(wish, 'cancelled')).status).toBe(200);
    const closed = await s.http.post(
      `/api/v1/wishes/${wish}/notify`,
      { lot_id: lot },
      { token: adminToken() },
    );
    expect(closed.status).toBe(409);
    const after = await s.http.get(`/api/v1/wishes/${wish}`, { token: adminToken() });
    expect(after.body.admin_notes ?? '').not.toContain('informiert');
    expect(s.recorder.of(Events.WishNotified).some((e) => e.payload.wish_id === wish)).toBe(false);
  });
});
