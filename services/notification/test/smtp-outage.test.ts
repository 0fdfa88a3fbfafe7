import { startMailpit, type Mailpit } from '@furniture/infra';
import { eventually } from '@furniture/platform/testing';
import { Events } from '@furniture/contracts';
import {
  donationStatusChanged,
  donationSubmitted,
  donor,
  family,
  statusChange,
  submitted,
} from './events';
import { startNotification, type NotificationUnderTest } from './harness';
import { mailbox } from './mailbox';

// A Mailpit of this file's own, so that stopping it or making it refuse disturbs no other test.
// While it is stopped its API does not answer either: what arrived is counted once it is back.
let catcher: Mailpit;
let box: ReturnType<typeof mailbox>;
const started: NotificationUnderTest[] = [];

beforeAll(async () => {
  catcher = await startMailpit();
  box = mailbox(catcher.apiUrl);
});
afterAll(async () => {
  for (const svc of started) await svc.stop();
  await catcher?.stop();
});

async function start(env: Record<string, string>) {
  const svc = await startNotification({
    SMTP_URL: catcher.smtpUrl,
    SMTP_TIMEOUT_MS: '2000',
    ...env,
  });
  started.push(svc);
  return svc;
}

function mailOf(svc: NotificationUnderTest, applicationId: number) {
  return svc.conn.collection('mails').findOne({ application_id: applicationId });
}

test('when the SMTP server is down, then the mail waits without using up its attempts and goes out within a probe interval once the server is back', async () => {
  const svc = await start({ MAIL_PROBE_INTERVAL_MS: '300', MAIL_MAX_ATTEMPTS: '2' });
  await catcher.stopServer();
  const f = family();
  try {
    await svc.publish(submitted(f));
    const waiting = await eventually(
      async () => {
        const mail = await mailOf(svc, f.applicationId);
        return mail && mail.state === 'queued' && mail.last_error ? mail : undefined;
      },
      { timeoutMs: 15000, what: 'a failed attempt' },
    );
    // the outage is not the mail's fault: no attempt is used up, however long it lasts
    expect(waiting.attempts).toBe(0);
    expect(waiting.sent_at).toBeNull();
    const ready = await svc.http.get('/ready');
    expect(ready.body.checks.smtp).toBe(false);
    // longer than MAIL_MAX_ATTEMPTS attempts would take: still waiting, not failed
    await new Promise((r) => setTimeout(r, 2000));
    expect(await mailOf(svc, f.applicationId)).toMatchObject({ state: 'queued', attempts: 0 });
  } finally {
    await catcher.startServer();
  }
  const back = Date.now();
  const [mail] = await box.waitFor(f.email!, 1);
  process.stdout.write(`mail sent ${Date.now() - back} ms after the SMTP server came back\n`);
  expect(mail!.Subject).toContain(`Bewerbung Nr. ${f.applicationId}`);
  const sent = await eventually(async () => {
    const record = await mailOf(svc, f.applicationId);
    return record?.state === 'sent' ? record : undefined;
  });
  expect(sent.attempts).toBe(1);
  expect(sent.sent_at).toBeInstanceOf(Date);
  expect((await svc.http.get('/ready')).body.checks.smtp).toBe(true);
  expect(await box.to(f.email!)).toHaveLength(1);
});

test('when the server is up but refuses for now (451) every time, then the mail is retried with backoff and marked failed after the last attempt', async () => {
  const svc = await start({ MAIL_RETRY_BASE_MS: '50', MAIL_MAX_ATTEMPTS: '3' });
  await catcher.refuseRecipients({ code: 451 });
  const f = family();
  try {
    await svc.publish(submitted(f));
    const failed = await eventually(
      async () => {
        const mail = await mailOf(svc, f.applicationId);
        return mail?.state === 'failed' ? mail : undefined;
      },
      { timeoutMs: 15000, what: 'the mail marked failed' },
    );
    expect(failed.attempts).toBe(3);
    expect(failed.next_attempt_at).toBeNull();
    expect(failed.last_error).toContain('451');
  } finally {
    await catcher.refuseRecipients(null);
  }
  svc.service.sender.kick();
  await svc.service.sender.idle();
  expect((await mailOf(svc, f.applicationId))?.state).toBe('failed');
  expect(await box.to(f.email!)).toEqual([]);
});

test('when the server refuses an address for good (550), then the mail is failed at once', async () => {
  const svc = await start({ MAIL_RETRY_BASE_MS: '50', MAIL_MAX_ATTEMPTS: '5' });
  await catcher.refuseRecipients({ code: 550 });
  const f = family();
  try {
    await svc.publish(submitted(f));
    const failed = await eventually(
      async () => {
        const mail = await mailOf(svc, f.applicationId);
        return mail?.state === 'failed' ? mail : undefined;
      },
      { timeoutMs: 15000, what: 'the mail marked failed' },
    );
    expect(failed.attempts).toBe(1);
  } finally {
    await catcher.refuseRecipients(null);
  }
});

test('when an older mail of the family still waits for its retry, then it goes out first and at once, before the newer one', async () => {
  // the first retry would come only after a minute
  const svc = await start({ MAIL_RETRY_BASE_MS: '60000', MAIL_MAX_ATTEMPTS: '100' });
  const f = family();
  await catcher.refuseRecipients({ code: 451 });
  try {
    await svc.publish(submitted(f));
    await eventually(
      async () => {
        const mail = await mailOf(svc, f.applicationId);
        return mail?.state === 'queued' && mail.attempts === 1;
      },
      { what: 'the first attempt failed' },
    );
  } finally {
    await catcher.refuseRecipients(null);
  }
  await svc.publish(statusChange(Events.ApplicationApproved, f));
  const mails = await box.waitFor(f.email!, 2);
  const inArrivalOrder = [...mails].sort((a, b) => a.Created.localeCompare(b.Created));
  expect(inArrivalOrder.map((m) => m.Subject.split(':')[0])).toEqual([
    `Bewerbung Nr. ${f.applicationId} eingegangen`,
    'Gute Nachricht',
  ]);
});

test('when the SMTP server is down while a donor offers and is accepted, then both mails wait and go out once each after it is back, the offer first', async () => {
  const svc = await start({ MAIL_PROBE_INTERVAL_MS: '300' });
  const d = donor();
  const donorMails = () =>
    svc.conn.collection('mails').find({ donation_id: d.donationId }).toArray();
  await catcher.stopServer();
  try {
    await svc.publish(donationSubmitted(d));
    await svc.publish(donationStatusChanged(d, 'submitted', 'accepted'));
    await eventually(
      async () => {
        const mails = await donorMails();
        return mails.length === 2 &&
          mails.every((m) => m.state === 'queued' && m.attempts === 0) &&
          mails.some((m) => m.last_error)
          ? mails
          : undefined;
      },
      { timeoutMs: 15000, what: "the donor's mails waiting for the server" },
    );
  } finally {
    await catcher.startServer();
  }
  const mails = await box.waitFor(d.email!, 2);
  const inArrivalOrder = [...mails].sort((a, b) => a.Created.localeCompare(b.Created));
  expect(inArrivalOrder.map((m) => m.Subject.replace(/ – .*$/, ''))).toEqual([
    `Ihre Spende Nr. ${d.donationId} ist eingegangen`,
    `Ihre Spende Nr. ${d.donationId}: Wir nehmen Ihre Möbel gern an`,
  ]);
  const records = await eventually(async () => {
    const all = await donorMails();
    return all.every((m) => m.state === 'sent') ? all : undefined;
  });
  expect(records.map((m) => m.attempts)).toEqual([1, 1]);
  expect(await box.to(d.email!)).toHaveLength(2);
});

test('when a mail was left "sending" past its lease (the sender was killed mid-send), then it is sent once more and its record counts the attempt that was cut short', async () => {
  const svc = await start({
    SMTP_TIMEOUT_MS: '300',
    MAIL_LEASE_MS: '1000',
    MAIL_PROBE_INTERVAL_MS: '300',
  });
  await catcher.stopServer();
  const f = family();
  try {
    await svc.publish(submitted(f));
    await eventually(async () => {
      const mail = await mailOf(svc, f.applicationId);
      return mail?.state === 'queued' && mail.last_error ? mail : undefined;
    });
    // what a kill -9 between the claim and the server's answer leaves behind
    await svc.conn
      .collection('mails')
      .updateOne(
        { application_id: f.applicationId },
        { $set: { state: 'sending', attempts: 1, lease_until: new Date(Date.now() - 1000) } },
      );
  } finally {
    await catcher.startServer();
  }
  await box.waitFor(f.email!, 1);
  const sent = await eventually(async () => {
    const record = await mailOf(svc, f.applicationId);
    return record?.state === 'sent' ? record : undefined;
  });
  expect(sent).toMatchObject({ attempts: 2, interrupted_attempts: 1 });
  expect(await box.to(f.email!)).toHaveLength(1);
});
