/**
 * Families' phone numbers and e-mail addresses never reach a log line (issue 14): a full run of
 * every service and the gateway logging at `debug` into memory, with applications, wishes,
 * lookups by phone (path and ?phone=), staff searches by phone, an application mail and errors;
 * then every captured line is scanned for each number and address that was used, in every form
 * it travelled in.
 */
import { Writable } from 'node:stream';
import { createLogger } from '@furniture/platform';
import { eventually } from '@furniture/platform/testing';
import { startSystem, type System } from '../src/stack';

const lines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _enc, done) {
    lines.push(chunk.toString());
    done();
  },
});

let s: System;
beforeAll(async () => {
  s = await startSystem({ full: true, logger: (name) => createLogger(name, 'debug', sink) });
});
afterAll(async () => {
  await s?.stop();
});

const PHONE_NATIONAL = '0176 5550 1234';
const PHONE_E164 = '+4917655501234';
const WHATSAPP = '+380 67 555 0199';
const EMAIL = 'olena.kovalenko@example.org';

test('when families apply, look up and are looked up by phone, then no log line holds their number or address', async () => {
  const lot = await s.createLot();
  const applied = await s.http.post('/api/v1/applications/', {
    applicant_name: 'Olena Kovalenko',
    applicant_phone: PHONE_NATIONAL,
    applicant_whatsapp: WHATSAPP,
    applicant_email: EMAIL,
    applicant_city: 'Berlin',
    applicant_address: 'Sonnenallee 1',
    needs_delivery_help: false,
    lot_id: lot,
  });
  expect(applied.status).toBe(201);
  const staff = s.staff();
  const encoded = encodeURIComponent(PHONE_E164);
  for (const path of [
    `/api/v1/applications/public/check-status/${encoded}`,
    `/api/v1/applications/public/check-status/${encodeURIComponent(PHONE_NATIONAL)}`,
    `/api/v1/lots/${lot}/can-apply?phone=${encoded}`,
    `/api/v1/lots/${lot}/applications-info?phone=${encoded}`,
    `/api/v1/applications/public/check-status/${encoded}x`, // refused: a 4xx line
  ])
    await s.http.get(path);
  await s.http.get(`/api/v1/applications/by-phone/${encoded}`, staff);
  await s.http.get(`/api/v1/applications?search=${encodeURIComponent(PHONE_NATIONAL)}`, staff);
  await s.http.post('/api/v1/wishes/', {
    applicant_name: 'Iryna Shevchenko',
    applicant_whatsapp: WHATSAPP,
    applicant_email: EMAIL,
    furniture_category: 2,
    furniture_description: 'Ein Kinderbett mit Matratze',
  });
  // the approval mail to the family goes through the notification service's log too
  expect(
    (
      await s.http.patch(
        `/api/v1/applications/${applied.body.id}/status`,
        { status: 'approved' },
        staff,
      )
    ).status,
  ).toBe(202);
  await eventually(
    async () =>
      (await s.http.get(`/api/v1/applications/${applied.body.id}`, staff)).body.status ===
      'approved',
    { what: 'approved' },
  );

  const text = lines.join('');
  expect(lines.length).toBeGreaterThan(20);
  expect(text).toContain('[phone]');
  const digits = (p: string) => p.replace(/\D/g, '');
  for (const secret of [
    digits(PHONE_E164),
    digits(PHONE_NATIONAL),
    '5550 1234',
    '55501234',
    digits(WHATSAPP),
    '555 0199',
    EMAIL,
    encodeURIComponent(EMAIL),
  ])
    expect({ secret, found: text.includes(secret) }).toEqual({ secret, found: false });
});
