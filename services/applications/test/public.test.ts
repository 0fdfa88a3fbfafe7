/**
 * What families do without an account, through the gateway with the real catalog: apply, check
 * whether they can, see their place in the queue, and look up their applications by phone.
 */
import { Events, NOT_SPECIFIED } from '@furniture/contracts';
import { api } from '@furniture/platform/testing';
import { startTestGateway } from '@furniture/gateway/testing';
import { adminToken, applicationBody, e164, newPhone } from './harness';
import { startStack, type Stack } from './stack';

let s: Stack;
beforeAll(async () => {
  s = await startStack({ env: { MAX_OPEN_APPLICATIONS_PER_PHONE: '3' } });
});
afterAll(async () => {
  await s?.stop();
});

const staff = () => ({ token: adminToken() });
const enc = encodeURIComponent;

async function apply(lotId: number, overrides: Record<string, unknown> = {}) {
  return s.http.post('/api/v1/applications/', applicationBody(lotId, overrides));
}

async function setStatus(id: number, status: string, note?: string) {
  const res = await s.http.patch(`/api/v1/applications/${id}/status`, { status, note }, staff());
  expect(res.status).toBe(200);
  return res.body;
}

describe('applying (POST /applications/)', () => {
  test('when the form is complete, then 201 {id, status, created_at} and the application is stored as sent, with the phone in E.164', async () => {
    const lot = await s.createLot();
    const res = await apply(lot, {
      applicant_phone: '0176 555 01 01',
      applicant_whatsapp: '380 67 555 0101',
      applicant_city: '',
      applicant_address: null,
      needs_delivery_help: true,
      language: 'uk',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      status: 'pending',
      created_at: expect.any(String),
      queue_position: 1,
    });
    const app = await s.http.get(`/api/v1/applications/${res.body.id}`, staff());
    expect(app.body).toMatchObject({
      lot_id: lot,
      status: 'pending',
      applicant_name: 'Olena Kovalenko',
      applicant_phone: '+491765550101',
      applicant_phone_raw: '0176 555 01 01',
      applicant_whatsapp: '+380675550101',
      applicant_email: 'olena@example.org',
      applicant_city: NOT_SPECIFIED,
      applicant_address: NOT_SPECIFIED,
      needs_delivery_help: true,
      language: 'uk',
      created_at: res.body.created_at,
      internal_notes: '',
      queue_position: 1,
      lot: {
        id: lot,
        name: { de: 'Ecksofa grau', uk: 'Кутовий диван сірий' },
        status: 'available',
      },
    });
    const event = await s.recorder.waitFor(
      Events.ApplicationSubmitted,
      (e) => e.payload.application_id === res.body.id,
    );
    expect(event.actor).toBeNull();
    expect(event.payload).toMatchObject({
      lot_id: lot,
      status: 'pending',
      applicant_name: 'Olena Kovalenko',
      applicant_email: 'olena@example.org',
      language: 'uk',
      lot_name: { de: 'Ecksofa grau', uk: 'Кутовий диван сірий' },
      queue_position: 1,
    });
  });

  test("when no e-mail and no language are sent, then the e-mail is null and the language is the page request's", async () => {
    const lot = await s.createLot();
    const res = await s.http.post(
      '/api/v1/applications/',
      applicationBody(lot, { applicant_email: '', applicant_whatsapp: null }),
      { headers: { 'accept-language': 'uk-UA,uk;q=0.9' } },
    );
    expect(res.status).toBe(201);
    const app = await s.http.get(`/api/v1/applications/${res.body.id}`, staff());
    expect(app.body).toMatchObject({
      applicant_email: null,
      applicant_whatsapp: null,
      language: 'uk',
    });
  });

  test('when fields break the rules, then 422 lists each field with loc, msg and type', async () => {
    const res = await s.http.post('/api/v1/applications/', {
      applicant_name: '',
      applicant_phone: '12ab',
      applicant_whatsapp: '+49 (0) 176-abc',
      applicant_email: 'kein-mail',
      applicant_city: 'x'.repeat(101),
      applicant_address: 'y'.repeat(201),
      needs_delivery_help: 'ja',
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      success: false,
      code: 'VALIDATION_FAILED',
      message: 'Bitte überprüfen Sie Ihre Eingaben und versuchen Sie es erneut.',
    });
    expect(res.body.detail).toEqual([
      { loc: ['body', 'applicant_name'], msg: 'Dieses Feld ist erforderlich', type: 'required' },
      { loc: ['body', 'applicant_phone'], msg: 'Ungültige Telefonnummer', type: 'invalid_phone' },
      {
        loc: ['body', 'applicant_whatsapp'],
        msg: 'Ungültige WhatsApp-Nummer',
        type: 'invalid_whatsapp',
      },
      { loc: ['body', 'applicant_email'], msg: 'Ungültige E-Mail-Adresse', type: 'invalid_email' },
      { loc: ['body', 'applicant_city'], msg: 'Höchstens 100 Zeichen', type: 'too_long' },
      { loc: ['body', 'applicant_address'], msg: 'Höchstens 200 Zeichen', type: 'too_long' },
      { loc: ['body', 'needs_delivery_help'], msg: 'Ungültiger Wert', type: 'invalid_type' },
      { loc: ['body', 'lot_id'], msg: 'Dieses Feld ist erforderlich', type: 'required' },
    ]);

    const uk = await s.http.post(
      '/api/v1/applications/',
      { applicant_name: 'О', applicant_phone: '', lot_id: 'abc' },
      { headers: { 'accept-language': 'uk' } },
    );
    expect(uk.status).toBe(422);
    expect(uk.body.detail).toEqual([
      { loc: ['body', 'applicant_name'], msg: 'Щонайменше 2 символів', type: 'too_short' },
      { loc: ['body', 'applicant_phone'], msg: "Це поле обов'язкове", type: 'required' },
      { loc: ['body', 'lot_id'], msg: 'Неприпустиме значення', type: 'invalid_type' },
    ]);
  });

  test('when a phone has the right shape but is no phone number, then 422 invalid_phone', async () => {
    const lot = await s.createLot();
    const res = await apply(lot, {
      applicant_phone: '+0 000 000 00',
      applicant_whatsapp: '+999 1234567',
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      { loc: ['body', 'applicant_phone'], msg: 'Ungültige Telefonnummer', type: 'invalid_phone' },
      {
        loc: ['body', 'applicant_whatsapp'],
        msg: 'Ungültige WhatsApp-Nummer',
        type: 'invalid_whatsapp',
      },
    ]);
  });

  test('when one family applies again with 0176…, +49 176… or 0049 176…, then it is the same applicant: 409 with the duplicate phrase in German, Ukrainian and English', async () => {
    const lot = await s.createLot();
    const national = newPhone();
    expect((await apply(lot, { applicant_phone: national })).status).toBe(201);
    const forms = [
      [
        e164(national),
        'de',
        'Sie haben bereits eine Bewerbung für dieses Lot eingereicht.',
        'bereits eine Bewerbung',
      ],
      [
        e164(national).replace('+', '00'),
        'uk',
        'Ви вже подали заявку на цей лот.',
        'вже подали заявку',
      ],
      [
        e164(national).replace('+49', '+49 (0)'),
        'en-GB,en;q=0.8',
        'You have already applied for this lot.',
        'already applied',
      ],
    ] as const;
    for (const [phone, language, message, phrase] of forms) {
      const res = await s.http.post(
        '/api/v1/applications/',
        applicationBody(lot, { applicant_phone: phone }),
        { headers: { 'accept-language': language } },
      );
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({
        success: false,
        code: 'ALREADY_APPLIED',
        message,
        detail: message,
      });
      expect(res.body.message).toContain(phrase);
    }
    const stored = await s.http.get(`/api/v1/applications?lot_id=${lot}`, staff());
    expect(stored.body.total).toBe(1);
  });

  test('when Ukrainian and other international numbers are sent, then they keep their country code', async () => {
    const lot = await s.createLot();
    const cases = [
      ['+380 67 111 2233', '+380671112233'],
      ['00380 67 111 2234', '+380671112234'],
      ['380671112235', '+380671112235'],
      ['+48 512 345 678', '+48512345678'],
      ['030 1234567', '+49301234567'],
    ];
    for (const [input, expected] of cases) {
      const res = await apply(lot, { applicant_phone: input });
      expect(res.status).toBe(201);
      const app = await s.http.get(`/api/v1/applications/${res.body.id}`, staff());
      expect(app.body.applicant_phone).toBe(expected);
    }
  });

  test('when the lot is reserved, taken or unknown, then applying is refused (409 / 404)', async () => {
    const reserved = await s.createLot({ status: 'reserved' });
    const refused = await apply(reserved);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'LOT_NOT_AVAILABLE',
      message: 'Dieses Lot ist derzeit nicht verfügbar.',
    });
    // the duplicate dialog must not open for it
    expect(refused.body.message).not.toMatch(
      /bereits eine Bewerbung|вже подали заявку|already applied/,
    );
    const taken = await s.createLot({ status: 'taken' });
    expect((await apply(taken)).status).toBe(409);
    const unknown = await apply(999999);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'LOT_NOT_FOUND', message: 'Lot nicht gefunden' });
  });

  test('when the hidden honeypot field is filled, then the answer looks like a success but nothing is stored or announced', async () => {
    const lot = await s.createLot();
    const res = await apply(lot, { website: 'https://cheap-pills.example' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'pending', queue_position: 1 });
    expect((await s.http.get(`/api/v1/applications/${res.body.id}`, staff())).status).toBe(404);
    const list = await s.http.get(`/api/v1/applications?lot_id=${lot}`, staff());
    expect(list.body.total).toBe(0);
    const real = await apply(lot);
    await s.recorder.waitFor(
      Events.ApplicationSubmitted,
      (e) => e.payload.application_id === real.body.id,
    );
    expect(
      s.recorder
        .of(Events.ApplicationSubmitted)
        .some((e) => e.payload.application_id === res.body.id),
    ).toBe(false);
  });

  test('when a phone holds as many open applications as allowed, then the next one is refused until one is closed', async () => {
    const phone = newPhone();
    const lots = [
      await s.createLot(),
      await s.createLot(),
      await s.createLot(),
      await s.createLot(),
    ];
    const ids: number[] = [];
    for (const lot of lots.slice(0, 3)) {
      const res = await apply(lot, { applicant_phone: phone });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const refused = await apply(lots[3]!, { applicant_phone: e164(phone) });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'TOO_MANY_OPEN_APPLICATIONS',
      message:
        'Mit dieser Telefonnummer sind schon 3 offene Bewerbungen vorhanden. Bitte warten Sie auf eine Entscheidung, bevor Sie sich um weitere Lots bewerben.',
    });
    expect(refused.body.message).not.toMatch(
      /bereits eine Bewerbung|вже подали заявку|already applied/,
    );
    const check = await s.http.get(`/api/v1/lots/${lots[3]}/can-apply?phone=${enc(phone)}`);
    expect(check.body.data).toMatchObject({
      can_apply: false,
      reason_code: 'too_many_open_applications',
      total_applications: 3,
      max_open_applications: 3,
    });
    await setStatus(ids[0]!, 'rejected', 'Bitte ein anderes Lot wählen');
    expect((await apply(lots[3]!, { applicant_phone: phone })).status).toBe(201);
  });

  test('when a client sends more public writes than the gateway allows, then 429 with retry_after', async () => {
    const lot = await s.createLot();
    const strict = await startTestGateway(
      { CATALOG_URL: s.catalogUrl, APPLICATIONS_URL: s.applications.url },
      { RATE_LIMIT_PUBLIC_WRITES: '2' },
    );
    try {
      const http = api(strict.url);
      expect((await http.post('/api/v1/applications/', applicationBody(lot))).status).toBe(201);
      expect((await http.post('/api/v1/wishes/', { applicant_name: 'x' })).status).toBe(422);
      const limited = await http.post('/api/v1/applications/', applicationBody(lot));
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ code: 'RATE_LIMITED', retry_after: expect.any(Number) });
      // reading is not limited
      expect((await http.get(`/api/v1/lots/${lot}/applications-info`)).status).toBe(200);
    } finally {
      await strict.close();
    }
  });
});

describe('eligibility and queue (GET /lots/{id}/can-apply, /applications-info)', () => {
  test('when a family checks before and after applying, then can-apply answers {success, data: {can_apply, reason, total_applications}}', async () => {
    const lot = await s.createLot();
    const phone = newPhone();
    const before = await s.http.get(`/api/v1/lots/${lot}/can-apply?phone=${enc(phone)}`);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      success: true,
      data: {
        can_apply: true,
        reason: null,
        reason_code: null,
        total_applications: 0,
        max_open_applications: 3,
      },
    });
    expect((await apply(lot, { applicant_phone: phone })).status).toBe(201);
    const after = await s.http.get(`/api/v1/lots/${lot}/can-apply?phone=${enc(e164(phone))}`);
    expect(after.body.data).toMatchObject({
      can_apply: false,
      reason_code: 'already_applied',
      reason: 'Sie haben bereits eine Bewerbung für dieses Lot eingereicht.',
      total_applications: 1,
    });
    const uk = await s.http.get(`/api/v1/lots/${lot}/can-apply?phone=${enc(phone)}`, {
      headers: { 'accept-language': 'uk' },
    });
    expect(uk.body.data.reason).toBe('Ви вже подали заявку на цей лот.');
    // without a phone only the lot is judged
    const anonymous = await s.http.get(`/api/v1/lots/${lot}/can-apply`);
    expect(anonymous.body.data).toMatchObject({ can_apply: true, total_applications: 0 });

    const reserved = await s.createLot({ status: 'reserved' });
    const closed = await s.http.get(`/api/v1/lots/${reserved}/can-apply?phone=${enc(phone)}`);
    expect(closed.body.data).toMatchObject({
      can_apply: false,
      reason_code: 'lot_not_available',
      reason: 'Dieses Lot ist derzeit nicht verfügbar.',
    });
    expect((await s.http.get(`/api/v1/lots/${lot}/can-apply?phone=abc`)).status).toBe(422);
    expect((await s.http.get('/api/v1/lots/999999/can-apply')).status).toBe(404);
    expect((await s.http.get('/api/v1/lots/xyz/can-apply')).status).toBe(422);
  });

  test('when the queue panel is read without a phone, then a shared cache may keep it, and an application through the gateway shows at once; with a phone never', async () => {
    const lot = await s.createLot();
    const info = () => s.http.get(`/api/v1/lots/${lot}/applications-info`);
    const first = await info();
    expect(first.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=1');
    expect(first.body.data.applications_count).toBe(0);
    // kept by the gateway; the application (a write through it) drops what it keeps
    expect((await apply(lot, { applicant_phone: newPhone() })).status).toBe(201);
    expect((await info()).body.data.applications_count).toBe(1);
    const phone = await s.http.get(
      `/api/v1/lots/${lot}/applications-info?phone=${enc(newPhone())}`,
    );
    expect(phone.headers.get('cache-control') ?? '').not.toMatch(/public|s-maxage/);
    const asStaff = await s.http.get(`/api/v1/lots/${lot}/applications-info`, staff());
    expect(asStaff.headers.get('cache-control') ?? '').not.toMatch(/public|s-maxage/);
  });

  test('when three families apply and the first is rejected, then queue places are counted oldest first among open applications', async () => {
    const lot = await s.createLot();
    const phones = [newPhone(), newPhone(), newPhone()];
    const ids: number[] = [];
    for (const phone of phones) ids.push((await apply(lot, { applicant_phone: phone })).body.id);
    const info = async (phone?: string) =>
      (
        await s.http.get(
          `/api/v1/lots/${lot}/applications-info${phone ? `?phone=${enc(phone)}` : ''}`,
        )
      ).body;

    expect(await info(phones[1])).toEqual({
      success: true,
      data: {
        applications_count: 3,
        lot_status: 'available',
        user_has_application: true,
        can_apply: false,
        queue_position: 2,
        user_application_status: 'pending',
      },
    });
    expect((await info(phones[2])).data.queue_position).toBe(3);
    expect((await info()).data).toMatchObject({
      applications_count: 3,
      user_has_application: false,
      can_apply: true,
      queue_position: null,
    });

    await setStatus(ids[0]!, 'rejected', 'Nicht erreichbar');
    expect((await info(phones[0])).data).toMatchObject({
      applications_count: 2,
      user_has_application: true,
      queue_position: null,
      user_application_status: 'rejected',
      can_apply: false,
    });
    expect((await info(phones[1])).data.queue_position).toBe(1);
    expect((await info(e164(phones[2]!))).data.queue_position).toBe(2);
    // reconsidered, the first family gets its old place back (first come, first served)
    await setStatus(ids[0]!, 'pending');
    expect((await info(phones[0])).data.queue_position).toBe(1);
    expect((await info(phones[2])).data.queue_position).toBe(3);
  });
});

describe('status check (GET /applications/public/check-status/{phone})', () => {
  test('when a family looks up its number in any form, then only its applications are listed, newest first, with nothing else', async () => {
    const phone = newPhone();
    const lotA = await s.createLot({ name: { de: 'Bett', uk: 'Ліжко' } });
    const lotB = await s.createLot({ name: { de: 'Tisch', uk: 'Стіл' } });
    const first = (await apply(lotA, { applicant_phone: phone })).body;
    const second = (await apply(lotB, { applicant_phone: e164(phone) })).body;
    await apply(lotA); // someone else
    await setStatus(first.id, 'rejected', 'Schon vergeben');

    for (const form of [phone, e164(phone), e164(phone).replace('+', '00')]) {
      const res = await s.http.get(`/api/v1/applications/public/check-status/${enc(form)}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        applications: [
          {
            id: second.id,
            status: 'pending',
            lot_id: lotB,
            created_at: second.created_at,
            lot_name: { de: 'Tisch', uk: 'Стіл' },
          },
          {
            id: first.id,
            status: 'rejected',
            lot_id: lotA,
            created_at: first.created_at,
            lot_name: { de: 'Bett', uk: 'Ліжко' },
          },
        ],
      });
    }
  });

  test('when a number has no applications or is no number, then an empty list / 422', async () => {
    const none = await s.http.get(`/api/v1/applications/public/check-status/${enc(newPhone())}`);
    expect(none.body).toEqual({ applications: [] });
    const invalid = await s.http.get('/api/v1/applications/public/check-status/abc', {
      headers: { 'accept-language': 'uk' },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail[0]).toMatchObject({
      loc: ['path', 'phone'],
      msg: 'Неправильний формат номера телефону',
    });
  });
});
