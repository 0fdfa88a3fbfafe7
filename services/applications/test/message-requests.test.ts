/**
 * Prepared WhatsApp/SMS messages staff send from an application or a wish (issue 30), through the
 * gateway: the note line, message.requested with the family's numbers and language, and the
 * refusals. The numbers also travel in the family's mail events (the notification service's
 * channel choice rests on them).
 */
import { Events } from '@furniture/contracts';
import {
  VOLUNTEER,
  adminToken,
  applicationBody,
  e164,
  newPhone,
  volunteerToken,
  wishBody,
} from './harness';
import { startStack, type Stack } from './stack';

let s: Stack;
beforeAll(async () => {
  s = await startStack();
});
afterAll(async () => {
  await s?.stop();
});

async function apply(lotId: number, overrides: Record<string, unknown> = {}) {
  const res = await s.http.post('/api/v1/applications/', applicationBody(lotId, overrides), {
    headers: { 'accept-language': 'uk' },
  });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

describe('a prepared message from an application', () => {
  test('when staff ask for one, then 202, the application gets a CONTACT note and message.requested carries the numbers, language and lot', async () => {
    const lot = await s.createLot();
    const phone = newPhone();
    const id = await apply(lot, {
      applicant_phone: phone,
      applicant_whatsapp: '+380 67 555 0101',
      applicant_email: null,
    });
    // the submission's own event names both numbers too (a family without e-mail)
    const submitted = await s.recorder.waitFor(
      Events.ApplicationSubmitted,
      (e) => e.payload.application_id === id,
    );
    expect(submitted.payload).toMatchObject({
      applicant_email: null,
      applicant_phone: e164(phone),
      applicant_whatsapp: '+380675550101',
      language: 'uk',
    });

    const res = await s.http.post(
      `/api/v1/applications/${id}/messages`,
      { template: 'call_office' },
      { token: volunteerToken() },
    );
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ requested: true });

    const event = await s.recorder.waitFor(
      Events.MessageRequested,
      (e) => e.payload.application_id === id,
    );
    expect(event.payload).toMatchObject({
      wish_id: null,
      lot_id: lot,
      template: 'call_office',
      language: 'uk',
      applicant_email: null,
      applicant_phone: e164(phone),
      applicant_whatsapp: '+380675550101',
    });
    expect(event.actor).toMatchObject({ id: VOLUNTEER.id });

    const app = await s.http.get(`/api/v1/applications/${id}`, { token: adminToken() });
    const notes = app.body.internal_notes as string;
    expect(notes).toContain(`${VOLUNTEER.email} | CONTACT | Nachricht „Bitte melden Sie sich“`);
  });

  test('when the template is unknown, the application unknown, or no one is signed in, then 422, 404 and 401, and nothing is requested', async () => {
    const lot = await s.createLot();
    const id = await apply(lot);
    const bad = await s.http.post(
      `/api/v1/applications/${id}/messages`,
      { template: 'free_text' },
      { token: adminToken(), headers: { 'accept-language': 'uk' } },
    );
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('Невідомий шаблон повідомлення');
    const missing = await s.http.post(
      '/api/v1/applications/987654/messages',
      { template: 'call_office' },
      { token: adminToken() },
    );
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('APPLICATION_NOT_FOUND');
    const anonymous = await s.http.post(`/api/v1/applications/${id}/messages`, {
      template: 'call_office',
    });
    expect(anonymous.status).toBe(401);
    const app = await s.http.get(`/api/v1/applications/${id}`, { token: adminToken() });
    expect(app.body.internal_notes ?? '').not.toContain('CONTACT');
    expect(
      s.recorder.events.some(
        (e) =>
          e.name === Events.MessageRequested &&
          (e.payload as { application_id: number | null }).application_id === id,
      ),
    ).toBe(false);
  });
});

describe('a prepared message from a wish', () => {
  test('when staff ask for one for an active wish, then 202, a note line and message.requested with its WhatsApp number; a cancelled wish answers 409 WISH_NOT_ACTIVE', async () => {
    const created = await s.http.post(
      '/api/v1/wishes/',
      wishBody({ applicant_whatsapp: newPhone() }),
      { headers: { 'accept-language': 'uk' } },
    );
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    const res = await s.http.post(
      `/api/v1/wishes/${id}/messages`,
      { template: 'still_interested' },
      { token: adminToken() },
    );
    expect(res.status).toBe(202);
    const event = await s.recorder.waitFor(
      Events.MessageRequested,
      (e) => e.payload.wish_id === id,
    );
    expect(event.payload).toMatchObject({
      application_id: null,
      lot_id: null,
      template: 'still_interested',
      language: 'uk',
      applicant_whatsapp: expect.stringMatching(/^\+49176/),
    });
    const wish = await s.http.get(`/api/v1/wishes/${id}`, { token: adminToken() });
    expect(wish.body.admin_notes).toContain(
      'Nachricht „Noch Interesse?“ per WhatsApp/SMS angefordert',
    );

    const cancel = await s.http.patch(
      `/api/v1/wishes/${id}/status?status=cancelled`,
      {},
      {
        token: adminToken(),
      },
    );
    expect(cancel.status).toBe(200);
    const closed = await s.http.post(
      `/api/v1/wishes/${id}/messages`,
      { template: 'call_office' },
      { token: adminToken() },
    );
    expect(closed.status).toBe(409);
    expect(closed.body.code).toBe('WISH_NOT_ACTIVE');
  });
});
