/**
 * No budget for a bot (issue 43): an anonymous submission makes the platform send a paid
 * WhatsApp or SMS ("received") to whatever number was typed in. Those messages go only to numbers
 * of the allowed countries, at most one per number and day, and out of their own share of each
 * channel's monthly budget; a message after a staff action is still sent when a bot has used that
 * share up.
 */
import { Events } from '@furniture/contracts';
import { eventually } from '@furniture/platform/testing';
import { donationSubmitted, donor, family, statusChange, submitted } from './events';
import { freshNumber, startMessaging, withNumbers, type MessagingUnderTest } from './messaging';

let m: MessagingUnderTest;
beforeAll(async () => {
  // a budget of 50 per channel: 10 of each for anonymous submissions' messages (20 %)
  m = await startMessaging({
    WHATSAPP_MONTHLY_BUDGET: '50',
    SMS_MONTHLY_BUDGET: '50',
    MESSAGE_CONCURRENCY: '8',
  });
});
afterAll(async () => {
  await m?.stop();
});

const settled = (r: Record<string, unknown>) => !['queued', 'sending'].includes(r.status as string);

test("when a bot's 500 submissions have used the share up, then an approval's message is still sent, and the bot got at most its share, one message per number and day and none abroad", async () => {
  const sentBefore = m.standIn.messages().length;
  // 500 anonymous submissions: most to fresh German numbers, some to numbers abroad, some again
  // to a number already messaged today
  const repeated = freshNumber();
  const bot = Array.from({ length: 500 }, (_, i) => {
    const n = i % 10 === 3 ? '+12025550143' : i % 10 === 7 ? repeated : freshNumber();
    const e =
      i % 2 === 0 ? submitted(family({ email: null })) : donationSubmitted(donor({ email: null }));
    return withNumbers(e, { whatsapp: n, phone: n });
  });
  for (const e of bot) await m.svc.publish(e);
  const records = await eventually(
    async () => {
      const all = await m.recordsOf({ _id: { $in: bot.map((e) => e.eventId) } });
      return all.length === bot.length && all.every(settled) ? all : undefined;
    },
    { timeoutMs: 280_000, intervalMs: 500, what: "every bot submission's message settled" },
  );
  const count = (f: (r: Record<string, unknown>) => boolean) => records.filter(f).length;
  const sentOn = (channel: string) =>
    count(
      (r) => ['sent', 'delivered', 'read'].includes(r.status as string) && r.channel === channel,
    );
  expect(sentOn('whatsapp')).toBe(10);
  expect(sentOn('sms')).toBe(10);
  expect(count((r) => r.reason === 'country_not_allowed')).toBe(50);
  expect(count((r) => r.reason === 'anonymous_share_spent')).toBeGreaterThan(300);
  expect(count((r) => r.reason === 'daily_limit')).toBeGreaterThanOrEqual(49);
  // the repeated number: one message at most today
  expect(m.to(repeated).length).toBeLessThanOrEqual(1);
  expect(m.to('+12025550143')).toEqual([]);
  expect(m.standIn.messages().length - sentBefore).toBe(20);

  // staff approve a family: its message goes out, out of the rest of the budget
  const approved = withNumbers(
    statusChange(Events.ApplicationApproved, family({ email: null }), {
      pickupBy: '2026-12-04',
    }),
    { whatsapp: freshNumber() },
  );
  await m.svc.publish(approved);
  const record = await m.record(approved, settled, 30_000);
  expect([record.status, record.channel]).toEqual([
    expect.stringMatching(/sent|delivered|read/),
    'whatsapp',
  ]);
}, 300_000);

test('when the same number submits twice on one day, then only its first confirmation is sent; a number abroad gets none', async () => {
  const m = await startMessaging();
  try {
    const n = freshNumber();
    const first = withNumbers(submitted(family({ email: null })), { whatsapp: n, phone: n });
    const second = withNumbers(submitted(family({ email: null })), { phone: n });
    await m.svc.publish(first);
    await m.record(first, settled);
    await m.svc.publish(second);
    expect((await m.record(second, settled)).reason).toBe('daily_limit');
    const abroad = withNumbers(submitted(family()), { phone: '+2348031234567' });
    await m.svc.publish(abroad);
    expect((await m.record(abroad, settled)).reason).toBe('country_not_allowed');
    expect((await m.record(first, settled)).status).toMatch(/sent|delivered|read/);
    expect(m.to(n)).toHaveLength(1);
  } finally {
    await m.stop();
  }
});
