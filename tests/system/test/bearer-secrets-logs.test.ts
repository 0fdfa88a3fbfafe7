/**
 * No bearer secret in any log (issue 43): the handover journey (an approval, the family's
 * booking link opened, a slot booked, moved to the calendar and given back, the location's feed
 * read by its key in the query and in a header, wrong links and keys refused) with every service
 * and the gateway logging at `debug` into a file of its own; then every file is searched for the
 * link's token and the feed's key, in every form they travelled in.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createLogger } from '@furniture/platform';
import { eventually } from '@furniture/platform/testing';
import { startSystem, type System } from '../src/stack';

const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bearer-logs-'));
/** a log file per process, written as each line is logged */
const fileSink = (name: string) =>
  new Writable({
    write(chunk: Buffer, _enc, done) {
      fs.appendFileSync(path.join(logDir, `${name}.log`), chunk);
      done();
    },
  });

let s: System;
beforeAll(async () => {
  s = await startSystem({ logger: (name) => createLogger(name, 'debug', fileSink(name)) });
});
afterAll(async () => {
  await s?.stop();
  fs.rmSync(logDir, { recursive: true, force: true });
});

const HOUR = 3600_000;

test('when a family goes through the handover by its link and staff read the location feed, then no log file holds the link token or the feed key', async () => {
  const staff = s.staff();
  const lot = await s.createLot('Kleiderschrank weiß');
  const applied = await s.http.post('/api/v1/applications/', {
    applicant_name: 'Oksana Melnyk',
    applicant_phone: '0176 5550 4321',
    applicant_email: 'oksana.melnyk@example.org',
    applicant_city: 'Berlin',
    applicant_address: 'Sonnenallee 5',
    needs_delivery_help: false,
    lot_id: lot,
  });
  expect(applied.status).toBe(201);
  const id = applied.body.id as number;
  expect(
    (await s.http.patch(`/api/v1/applications/${id}/status`, { status: 'approved' }, staff)).status,
  ).toBe(202);
  const app = await eventually(
    async () => {
      const res = await s.http.get(`/api/v1/applications/${id}`, staff);
      return res.body.status === 'approved' && res.body.handover_url ? res.body : undefined;
    },
    { what: 'approved with a link' },
  );
  const token = (app.handover_url as string).split('/handover/')[1]!;
  expect(token).toMatch(/^[0-9a-f]{64}$/);

  const location = await s.http.post(
    '/api/v1/locations/',
    { name: 'Lager Wedding', address: 'Müllerstr. 1', city: 'Berlin' },
    staff,
  );
  expect(location.status).toBe(201);
  const feed = new URL(location.body.calendar_url as string);
  const key = feed.searchParams.get('key')!;
  const start = new Date(Date.now() + 48 * HOUR);
  start.setUTCMinutes(0, 0, 0);
  const slot = await s.http.post(
    '/api/v1/slots/',
    {
      location_id: location.body.id,
      kind: 'pickup',
      starts_at: start.toISOString(),
      ends_at: new Date(start.getTime() + HOUR).toISOString(),
      capacity: 2,
    },
    staff,
  );
  expect(slot.status).toBe(201);

  // the family, by its link
  expect((await s.http.get(`/api/v1/handovers/${token}`)).status).toBe(200);
  const booked = await s.http.post(`/api/v1/handovers/${token}/booking`, {
    slot_id: slot.body.id,
  });
  expect(booked.status).toBe(200);
  expect((await s.http.get(`/api/v1/handovers/${token}/calendar.ics`)).status).toBe(200);
  // staff's calendar, by the feed's key in the query and in the header
  expect((await s.http.get(`${feed.pathname}${feed.search}`)).status).toBe(200);
  expect((await s.http.get(feed.pathname, { headers: { 'x-feed-key': key } })).status).toBe(200);
  // refused ones are logged as warnings: with what was sent
  expect((await s.http.get(`/api/v1/handovers/${token.replace(/.$/, '0')}x`)).status).toBe(404);
  expect((await s.http.get(`${feed.pathname}?key=${key}x`)).status).toBe(404);
  expect((await s.http.delete(`/api/v1/handovers/${token}/booking`)).status).toBe(204);
  // the mails of the approval and the booking carry the link: the notification service's log
  await eventually(
    () => s.recorder.events.some((e) => e.name === 'handover.cancelled') || undefined,
    { what: 'the booking given back' },
  );
  await new Promise((resolve) => setTimeout(resolve, 1500));

  const files = fs.readdirSync(logDir);
  expect(files.sort()).toEqual(
    expect.arrayContaining(['applications.log', 'gateway.log', 'notification.log']),
  );
  const secrets = [token, key, encodeURIComponent(key), token.slice(0, 32), key.slice(0, 20)];
  let lines = 0;
  for (const file of files) {
    const text = fs.readFileSync(path.join(logDir, file), 'utf8');
    lines += text.split('\n').length;
    for (const secret of secrets) expect([file, text.includes(secret)]).toEqual([file, false]);
  }
  // the journey was logged (request lines with the redacted paths), only without its secrets
  expect(lines).toBeGreaterThan(20);
  const gateway = fs.readFileSync(path.join(logDir, 'gateway.log'), 'utf8');
  expect(gateway).toContain('/api/v1/handovers/[redacted]/booking');
  expect(gateway).toContain('calendar.ics?key=[redacted]');
});
