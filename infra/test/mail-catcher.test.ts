import fs from 'node:fs';
import path from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { startMailCatcher, type MailCatcher } from '../src/mail-catcher';
import { canConnect, freshDir } from './helpers';

interface Address {
  Name: string;
  Address: string;
}
interface Summary {
  ID: string;
  MessageID: string;
  From: Address;
  To: Address[];
  Subject: string;
  Created: string;
  Snippet: string;
  Size: number;
}
interface ListResponse {
  total: number;
  count: number;
  start: number;
  messages: Summary[];
}
interface Detail {
  ID: string;
  MessageID: string;
  From: Address;
  To: Address[];
  Cc: Address[];
  Subject: string;
  Date: string;
  Text: string;
  HTML: string;
}

async function getJson<T>(url: string): Promise<{ status: number; body: T }> {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as T };
}

function send(catcher: MailCatcher, mail: SendMailOptions, auth = false): Promise<unknown> {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: catcher.smtpPort,
    secure: false,
    ...(auth ? { auth: { user: 'any-user', pass: 'any-password' } } : {}),
  });
  return transport.sendMail(mail).finally(() => transport.close());
}

describe('mail catcher', () => {
  let dir: string;
  let catcher: MailCatcher;

  beforeAll(async () => {
    dir = freshDir('mail-catcher');
    catcher = await startMailCatcher({ dir });
  });
  afterAll(async () => {
    await catcher.stop();
  });

  it('reports its URLs and answers /livez', async () => {
    expect(catcher.smtpUrl).toBe(`smtp://127.0.0.1:${catcher.smtpPort}`);
    expect(catcher.apiUrl).toBe(`http://127.0.0.1:${catcher.httpPort}`);
    expect((await fetch(`${catcher.apiUrl}/livez`)).status).toBe(200);
  });

  it('captures mail and serves Mailpit-shaped list, detail, search, headers and raw', async () => {
    await send(catcher, {
      from: '"Möbelbank" <noreply@furniture.test>',
      to: 'Olena <olena@example.org>',
      cc: 'helper@example.org',
      subject: 'Ihre Anfrage / Ваша заявка',
      text: 'Hallo Olena,\nIhr Termin ist am Montag.',
      html: '<p>Hallo <b>Olena</b></p>',
    });
    await send(
      catcher,
      {
        from: 'noreply@furniture.test',
        to: 'taras@example.org',
        subject: 'Second mail',
        text: 'second body',
      },
      true,
    );

    const list = await getJson<ListResponse>(`${catcher.apiUrl}/api/v1/messages`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 2, count: 2, start: 0 });
    const [newest, older] = list.body.messages;
    expect(newest?.Subject).toBe('Second mail'); // newest first
    expect(older).toMatchObject({
      From: { Name: 'Möbelbank', Address: 'noreply@furniture.test' },
      To: [{ Name: 'Olena', Address: 'olena@example.org' }],
      Subject: 'Ihre Anfrage / Ваша заявка',
    });
    expect(older?.Snippet).toContain('Hallo Olena');
    expect(older?.Size).toBeGreaterThan(100);
    expect(Number.isNaN(Date.parse(older?.Created ?? ''))).toBe(false);
    expect(older?.MessageID).toMatch(/@/);

    const paged = await getJson<ListResponse>(`${catcher.apiUrl}/api/v1/messages?limit=1&start=1`);
    expect(paged.body).toMatchObject({ total: 2, count: 1, start: 1 });
    expect(paged.body.messages[0]?.ID).toBe(older?.ID);

    const detail = await getJson<Detail>(`${catcher.apiUrl}/api/v1/message/${older?.ID ?? ''}`);
    expect(detail.status).toBe(200);
    expect(detail.body.Text).toContain('Ihr Termin ist am Montag.');
    expect(detail.body.HTML).toContain('<b>Olena</b>');
    expect(detail.body.Cc).toEqual([{ Name: '', Address: 'helper@example.org' }]);
    expect(Number.isNaN(Date.parse(detail.body.Date))).toBe(false);

    const latest = await getJson<Detail>(`${catcher.apiUrl}/api/v1/message/latest`);
    expect(latest.body.Subject).toBe('Second mail');

    const missing = await getJson<{ error: string }>(`${catcher.apiUrl}/api/v1/message/nope`);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBeTruthy();

    const byTo = await getJson<ListResponse>(
      `${catcher.apiUrl}/api/v1/search?query=${encodeURIComponent('to:olena@example.org')}`,
    );
    expect(byTo.body.messages.map((m) => m.Subject)).toEqual(['Ihre Anfrage / Ваша заявка']);
    const bySubject = await getJson<ListResponse>(
      `${catcher.apiUrl}/api/v1/search?query=${encodeURIComponent('second')}`,
    );
    expect(bySubject.body.messages.map((m) => m.Subject)).toEqual(['Second mail']);
    const combined = await getJson<ListResponse>(
      `${catcher.apiUrl}/api/v1/search?query=${encodeURIComponent('to:taras@example.org subject:"second mail"')}`,
    );
    expect(combined.body.count).toBe(1);
    const none = await getJson<ListResponse>(
      `${catcher.apiUrl}/api/v1/search?query=${encodeURIComponent('to:nobody@example.org')}`,
    );
    expect(none.body).toMatchObject({ count: 0, messages: [] });

    const headers = await getJson<Record<string, string[]>>(
      `${catcher.apiUrl}/api/v1/message/${older?.ID ?? ''}/headers`,
    );
    expect(headers.body.Subject?.[0]).toBeTruthy();
    const raw = await fetch(`${catcher.apiUrl}/api/v1/message/${older?.ID ?? ''}/raw`);
    expect(await raw.text()).toMatch(/^Content-Type:|\r\nSubject:/m);
  });

  it('renders an HTML page with everything escaped', async () => {
    await send(catcher, {
      from: 'x@example.org',
      to: 'y@example.org',
      subject: '<script>alert(1)</script>',
      html: '<img src=x onerror=alert(2)>',
    });
    const page = await (await fetch(`${catcher.apiUrl}/`)).text();
    expect(page).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(page).not.toContain('<script>');
    const { body } = await getJson<ListResponse>(`${catcher.apiUrl}/api/v1/messages?limit=1`);
    const view = await (await fetch(`${catcher.apiUrl}/view/${body.messages[0]?.ID ?? ''}`)).text();
    expect(view).not.toContain('<img src=x');
    expect(view).toContain('sandbox=""');
  });

  it('deletes selected messages and then all', async () => {
    const before = await getJson<ListResponse>(`${catcher.apiUrl}/api/v1/messages`);
    const first = before.body.messages[0]?.ID ?? '';
    const del = await fetch(`${catcher.apiUrl}/api/v1/messages`, {
      method: 'DELETE',
      body: JSON.stringify({ IDs: [first] }),
    });
    expect(del.status).toBe(200);
    const after = await getJson<ListResponse>(`${catcher.apiUrl}/api/v1/messages`);
    expect(after.body.total).toBe(before.body.total - 1);
    expect(fs.existsSync(path.join(dir, `${first}.json`))).toBe(false);
    expect((await fetch(`${catcher.apiUrl}/api/v1/messages`, { method: 'DELETE' })).status).toBe(
      200,
    );
    expect((await getJson<ListResponse>(`${catcher.apiUrl}/api/v1/messages`)).body.total).toBe(0);
  });

  it('stopSmtp/startSmtp take only SMTP down and up again on the same port', async () => {
    await send(catcher, {
      from: 'a@example.org',
      to: 'before@example.org',
      subject: 'before outage',
      text: 'x',
    });
    const port = catcher.smtpPort;
    await catcher.stopSmtp();
    expect(await canConnect(port)).toBe(false);
    await expect(
      send(catcher, {
        from: 'a@example.org',
        to: 'during@example.org',
        subject: 'during',
        text: 'x',
      }),
    ).rejects.toThrow(/ECONNREFUSED/);
    const during = await getJson<ListResponse>(`${catcher.apiUrl}/api/v1/messages`);
    expect(during.body.messages.map((m) => m.Subject)).toContain('before outage');

    await catcher.startSmtp();
    expect(catcher.smtpPort).toBe(port);
    await send(catcher, {
      from: 'a@example.org',
      to: 'after@example.org',
      subject: 'after outage',
      text: 'x',
    });
    const after = await getJson<ListResponse>(`${catcher.apiUrl}/api/v1/messages`);
    expect(after.body.messages.map((m) => m.Subject)).toEqual(['after outage', 'before outage']);
  });

  it('keeps mail across a restart when given a folder', async () => {
    const before = await getJson<ListResponse>(`${catcher.apiUrl}/api/v1/messages`);
    const { smtpPort, httpPort } = catcher;
    await catcher.stop();
    expect(await canConnect(httpPort)).toBe(false);
    catcher = await startMailCatcher({ dir, smtpPort, httpPort });
    const after = await getJson<ListResponse>(`${catcher.apiUrl}/api/v1/messages`);
    expect(after.body).toEqual(before.body);
    const id = after.body.messages[0]?.ID ?? '';
    expect((await fetch(`${catcher.apiUrl}/api/v1/message/${id}/raw`)).status).toBe(200);
  });

  it('works without a folder (memory only)', async () => {
    const memory = await startMailCatcher({});
    try {
      await send(memory, {
        from: 'a@example.org',
        to: 'b@example.org',
        subject: 'in memory',
        text: 'x',
      });
      const { body } = await getJson<ListResponse>(
        `${memory.apiUrl}/api/v1/search?query=to:b@example.org`,
      );
      expect(body.messages.map((m) => m.Subject)).toEqual(['in memory']);
      const raw = await fetch(`${memory.apiUrl}/api/v1/message/${body.messages[0]?.ID ?? ''}/raw`);
      expect(await raw.text()).toContain('in memory');
    } finally {
      await memory.stop();
    }
  });
});
