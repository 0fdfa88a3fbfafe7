// startMailpit: the pinned Mailpit build with the settings the platform relies on (any SMTP login
// over plain SMTP, its web UI, chaos triggers), taken down and brought back with its mail.
import fs from 'node:fs';
import nodemailer from 'nodemailer';
import os from 'node:os';
import path from 'node:path';
import { startMailpit, type Mailpit } from '../src/mailpit';
import { mailpitOnceBuilt } from '../src/start-infra';
import { ensureTool } from '../src/tools';
import { canConnect } from './helpers';

interface Found {
  messages_count: number;
  messages: { ID: string; Subject: string; To: { Address: string }[] }[];
}

function send(mailpit: Mailpit, to: string, subject: string): Promise<unknown> {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: mailpit.smtpPort,
    secure: false,
    // the notification service's SMTP_URL may carry a login: any is taken, without TLS
    auth: { user: 'any-user', pass: 'any-password' },
  });
  return transport
    .sendMail({ from: 'moebel@example.org', to, subject, text: 'Hallo' })
    .finally(() => transport.close());
}

async function search(mailpit: Mailpit, query: string): Promise<Found> {
  const res = await fetch(`${mailpit.apiUrl}/api/v1/search?query=${encodeURIComponent(query)}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Found;
}

describe('Mailpit', () => {
  let mailpit: Mailpit;
  beforeAll(async () => {
    mailpit = await startMailpit();
  });
  afterAll(async () => {
    await mailpit?.stop();
  });

  test('when a mail is sent with a login over plain SMTP, then its API finds it by recipient and its web UI is served', async () => {
    await send(mailpit, 'olena@example.org', 'Bewerbung eingegangen');
    const found = await search(mailpit, 'to:olena@example.org');
    expect(found.messages.map((m) => m.Subject)).toEqual(['Bewerbung eingegangen']);
    expect((await search(mailpit, 'to:nobody@example.org')).messages).toEqual([]);
    const page = await (await fetch(`${mailpit.apiUrl}/`)).text();
    const script = /dist\/app\.js[^"]*/.exec(page)?.[0];
    expect(script).toBeDefined();
    const bundle = await fetch(`${mailpit.apiUrl}/${script}`);
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });

  test('when it is stopped, then SMTP is refused; started again, it listens on the same ports with its mail', async () => {
    await send(mailpit, 'ivan@example.org', 'vor dem Ausfall');
    await mailpit.stopServer();
    expect(await canConnect(mailpit.smtpPort)).toBe(false);
    await expect(send(mailpit, 'ivan@example.org', 'im Ausfall')).rejects.toThrow(/ECONNREFUSED/);
    await mailpit.startServer();
    await send(mailpit, 'ivan@example.org', 'nach dem Ausfall');
    const found = await search(mailpit, 'to:ivan@example.org');
    expect(found.messages.map((m) => m.Subject).sort()).toEqual([
      'nach dem Ausfall',
      'vor dem Ausfall',
    ]);
  });

  test('when it refuses recipients, then the sender gets that SMTP code until it takes them again', async () => {
    await mailpit.refuseRecipients({ code: 550 });
    try {
      await expect(send(mailpit, 'petro@example.org', 'abgelehnt')).rejects.toMatchObject({
        responseCode: 550,
      });
    } finally {
      await mailpit.refuseRecipients(null);
    }
    await send(mailpit, 'petro@example.org', 'angenommen');
    const found = await search(mailpit, 'to:petro@example.org');
    expect(found.messages.map((m) => m.Subject)).toEqual(['angenommen']);
  });

  test('when a Mailpit without a data folder stops, then its temporary folder goes with it', async () => {
    const own = await startMailpit();
    const info = (await (await fetch(`${own.apiUrl}/api/v1/info`)).json()) as { Database: string };
    expect(fs.existsSync(info.Database)).toBe(true);
    await own.stop();
    expect(fs.existsSync(info.Database)).toBe(false);
    expect(await canConnect(own.httpPort)).toBe(false);
  });

  test('when make run starts before Mailpit is built, then its SMTP address is announced at once and Mailpit listens there once the build is done; stopped before that, it never starts', async () => {
    const binary = await ensureTool('mailpit');
    let buildDone!: (path: string) => void;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-later-'));
    try {
      const later = await mailpitOnceBuilt(new Promise<string>((r) => (buildDone = r)), {
        dataDir,
      });
      const port = Number(new URL(later.value.smtpUrl).port);
      // the platform starts with this address; nothing listens yet (mails wait, as in an outage)
      expect(await canConnect(port)).toBe(false);
      buildDone(binary);
      const up = { smtpPort: port, apiUrl: later.value.apiUrl } as Mailpit;
      for (let i = 0; i < 100 && !(await canConnect(port)); i++)
        await new Promise((r) => setTimeout(r, 100));
      await send(up, 'oksana@example.org', 'nach dem Bau');
      expect((await search(up, 'to:oksana@example.org')).messages).toHaveLength(1);
      await later.stop!();
      expect(await canConnect(port)).toBe(false);

      let never!: (path: string) => void;
      const stoppedEarly = await mailpitOnceBuilt(new Promise<string>((r) => (never = r)), {
        dataDir,
      });
      await stoppedEarly.stop!();
      never(binary);
      await new Promise((r) => setTimeout(r, 1500));
      expect(await canConnect(Number(new URL(stoppedEarly.value.smtpUrl).port))).toBe(false);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
