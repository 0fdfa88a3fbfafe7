import { api, eventually, testUrls } from '@furniture/platform/testing';
import { family, submitted } from './events';
import { mailbox } from './mailbox';
import { freshNumber, startMessaging, withNumbers, type MessagingUnderTest } from './messaging';

const started: MessagingUnderTest[] = [];
afterAll(async () => {
  for (const s of started) await s.stop();
});
async function start(env: Record<string, string> = {}) {
  const s = await startMessaging(env);
  started.push(s);
  return s;
}

test('when WhatsApp is away for two minutes, then the messages queued meanwhile wait without using attempts and each arrives exactly once after it is back', async () => {
  const m = await start({ MESSAGE_MAX_ATTEMPTS: '2', MESSAGE_PROBE_INTERVAL_MS: '500' });
  const http = api(m.svc.url);
  m.standIn.setDown('whatsapp', true);
  const numbers = Array.from({ length: 6 }, () => freshNumber());
  const events = numbers.map((n) => withNumbers(submitted(family()), { whatsapp: n, phone: n }));
  const downAt = Date.now();
  try {
    for (const e of events) await m.svc.publish(e);
    await eventually(
      async () => {
        const all = await Promise.all(events.map((e) => m.record(e)));
        return all.every((r) => r.status === 'queued' && r.last_error) ? all : undefined;
      },
      { timeoutMs: 30000, what: 'every message waiting for WhatsApp' },
    );
    const status = await http.get('/api/v1/messages/status', { token: m.svc.adminToken });
    expect(status.body.data.whatsapp.reachable).toBe(false);
    expect((await http.get('/ready')).body.checks.whatsapp).toBe(false);
    // the outage lasts two minutes: far longer than two attempts with their backoff would take
    await new Promise((r) => setTimeout(r, Math.max(0, 120_000 - (Date.now() - downAt))));
    for (const e of events) {
      // at rest (every few seconds a message is claimed, finds WhatsApp still away and is put
      // back with its attempt given back; a read in that moment sees it "sending"): waiting, not
      // failed, not moved to SMS, no attempt used
      const r = await m.record(e, (x) => x.status !== 'sending');
      expect(r).toMatchObject({ status: 'queued', attempts: 0, failed_channels: [] });
    }
    expect(m.standIn.messages().filter((c) => numbers.includes(c.to))).toEqual([]);
  } finally {
    m.standIn.setDown('whatsapp', false);
  }
  for (const e of events) await m.record(e, (r) => r.status === 'read', 30000);
  for (const n of numbers) {
    const got = m.to(n);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ channel: 'whatsapp', template: 'mb_submitted' });
  }
  expect((await http.get('/ready')).body.checks.whatsapp).toBe(true);
}, 300_000);

test("when 80 % of the month's WhatsApp budget are used, then one warning entry and one office mail; at 100 % WhatsApp is passed over for SMS", async () => {
  const m = await start({
    WHATSAPP_MONTHLY_BUDGET: '5',
    // the submissions' confirmations may use the whole budget here (their share: messages-bot)
    ANONYMOUS_MESSAGE_BUDGET_PERCENT: '100',
    OFFICE_EMAIL: `budget-${Date.now()}@moebel.example`,
  });
  const office = m.svc.config.OFFICE_EMAIL;
  const box = mailbox(testUrls().mailApiUrl);
  const events = Array.from({ length: 6 }, () => {
    const n = freshNumber();
    return { n, e: withNumbers(submitted(family({ email: null })), { whatsapp: n, phone: n }) };
  });
  for (const { e } of events.slice(0, 5)) {
    await m.svc.publish(e);
    await m.record(e, (r) => r.status !== 'queued' && r.status !== 'sending');
  }
  const warnings = await eventually(async () => {
    const w = await m.svc.conn
      .collection('activity_logs')
      .find({ action_type: 'MESSAGE_BUDGET_WARNING' })
      .toArray();
    return w.length > 0 ? w : undefined;
  });
  expect(warnings).toHaveLength(1);
  expect(JSON.parse(warnings[0]!.details_json as string)).toMatchObject({
    channel: 'whatsapp',
    budget: 5,
  });
  const [mail] = await box.waitFor(office, 1);
  expect(mail!.Subject).toContain('WhatsApp-Budget zu 80 % verbraucht');

  const last = events[5]!;
  await m.svc.publish(last.e);
  const r = await m.record(last.e, (x) => x.status !== 'queued' && x.status !== 'sending');
  expect(r.channel).toBe('sms');
  expect((r.steps as { channel: string; status: string; error: string }[])[0]).toMatchObject({
    channel: 'whatsapp',
    status: 'skipped',
    error: 'budget_spent',
  });
  const status = await api(m.svc.url).get('/api/v1/messages/status', {
    token: m.svc.adminToken,
  });
  expect(status.body.data.whatsapp).toMatchObject({
    used: 5,
    budget: 5,
    warning: true,
    spent: true,
  });
  // still one warning, one mail
  expect(
    await m.svc.conn
      .collection('activity_logs')
      .countDocuments({ action_type: 'MESSAGE_BUDGET_WARNING' }),
  ).toBe(1);
  expect(await box.to(office)).toHaveLength(1);
});
