// The WhatsApp/SMS stand-in against its own clients: provider calls as the notification service
// makes them, and a local receiver in place of the gateway that checks every signature with the
// providers' documented algorithms (implemented here again, independently of the stand-in).
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  startMessagesStandIn,
  type MessagesStandIn,
  type MessagesStandInOptions,
} from '../src/messages-standin';
import { waitUntil } from '../src/util';
import { freshDir } from './helpers';

const CREDENTIALS = {
  whatsapp: {
    token: 'EAAL-test-token',
    phoneNumberId: '109876543210987',
    businessAccountId: '201234567890123',
    appSecret: 'app-secret-of-the-test',
  },
  sms: {
    accountSid: `AC${'a1'.repeat(16)}`,
    authToken: 'sms-auth-token',
    number: '+4930555000199',
  },
} satisfies Pick<MessagesStandInOptions, 'whatsapp' | 'sms'>;

const FAMILY = '+4915112345678';

/** Polls until the probe passes (callbacks arrive in the background). */
function eventually(probe: () => unknown, opts: { what: string }): Promise<unknown> {
  return waitUntil(async () => probe(), { timeoutMs: 30_000, intervalMs: 20, what: opts.what });
}

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
}

/** The gateway's part: records every webhook and answers `status()`. */
async function startReceiver(status: (raw: string) => number = () => 200) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const answer = status(raw);
      received.push({ path: req.url ?? '', headers: req.headers, raw });
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

function metaSignatureValid(raw: string, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const expected = createHmac('sha256', CREDENTIALS.whatsapp.appSecret).update(raw).digest();
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Twilio's algorithm: the full URL, then each parameter's name and value sorted by name. */
function twilioSignatureValid(url: string, raw: string, header: unknown): boolean {
  const params = [...new URLSearchParams(raw).entries()].sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  let data = url;
  for (const [key, value] of params) data += key + value;
  const expected = createHmac('sha1', CREDENTIALS.sms.authToken).update(data).digest('base64');
  return header === expected;
}

interface StatusEntry {
  id: string;
  status: string;
  recipient_id: string;
  biz_opaque_callback_data?: string;
  errors?: Array<{ code: number }>;
}

/** Earlier tests' callbacks may still arrive: each test looks at its own (by path or id). */
function at(r: Receiver, path: string): Received[] {
  return r.received.filter((x) => x.path === path);
}

function whatsappStatuses(r: Receiver, id?: string): StatusEntry[] {
  return whatsappStatusesOf(r.received).filter((s) => id === undefined || s.id === id);
}

function whatsappStatusesOf(list: Received[]): StatusEntry[] {
  return list.flatMap((x) => {
    const body = JSON.parse(x.raw) as {
      entry: Array<{ changes: Array<{ value: { statuses?: StatusEntry[] } }> }>;
    };
    return body.entry.flatMap((e) => e.changes.flatMap((c) => c.value.statuses ?? []));
  });
}

interface ApiMessage {
  id: string;
  channel: string;
  to: string;
  language: string | null;
  template: string | null;
  text: string;
  status: string;
  created_at: string;
}

async function apiMessages(s: MessagesStandIn, query = ''): Promise<ApiMessage[]> {
  const res = await fetch(`${s.apiUrl}/api/messages${query}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { messages: ApiMessage[] }).messages;
}

function graph(
  s: MessagesStandIn,
  path: string,
  body?: unknown,
  token = CREDENTIALS.whatsapp.token,
) {
  return fetch(`${s.whatsappApiUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

const TEMPLATE = {
  name: 'mb_approved',
  language: 'uk',
  category: 'UTILITY',
  components: [
    {
      type: 'BODY',
      text: 'Вашу заявку на «{{1}}» (лот {{2}}) схвалено.',
      example: { body_text: [['Шафа', '12']] },
    },
  ],
};

function templateSend(
  to: string,
  params: string[],
  name = 'mb_approved',
  language = 'uk',
  callbackData = 'event-0001',
) {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: to.replace('+', ''),
    type: 'template',
    template: {
      name,
      language: { code: language },
      components: [{ type: 'body', parameters: params.map((text) => ({ type: 'text', text })) }],
    },
    biz_opaque_callback_data: callbackData,
  };
}

function sendSms(
  s: MessagesStandIn,
  form: Record<string, string>,
  auth = `${CREDENTIALS.sms.accountSid}:${CREDENTIALS.sms.authToken}`,
) {
  return fetch(`${s.smsApiUrl}/2010-04-01/Accounts/${CREDENTIALS.sms.accountSid}/Messages.json`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(auth).toString('base64')}` },
    body: new URLSearchParams(form),
  });
}

describe('messages stand-in', () => {
  let standIn: MessagesStandIn;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    standIn = await startMessagesStandIn({ ...CREDENTIALS, callbackDelayMs: 20 });
    standIn.setWebhookUrls({ whatsapp: `${receiver.url}/wa`, sms: `${receiver.url}/sms-in` });
    expect(
      (
        await graph(
          standIn,
          `/${CREDENTIALS.whatsapp.businessAccountId}/message_templates`,
          TEMPLATE,
        )
      ).status,
    ).toBe(200);
  });

  afterAll(async () => {
    await standIn.stop();
    await receiver.close();
  });

  beforeEach(() => {
    standIn.clear();
    receiver.received.length = 0;
    standIn.setBehaviour({ whatsappUnreachable: [], smsUndeliverable: [] });
  });

  describe('WhatsApp', () => {
    it('renders the template, answers with a wamid and posts signed statuses sent → delivered → read', async () => {
      const res = await graph(
        standIn,
        `/${CREDENTIALS.whatsapp.phoneNumberId}/messages`,
        templateSend(FAMILY, ['Шафа', '12']),
      );
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        contacts: Array<{ wa_id: string }>;
        messages: Array<{ id: string }>;
      };
      expect(body.contacts[0]?.wa_id).toBe('4915112345678');
      const wamid = body.messages[0]?.id ?? '';
      expect(wamid).toMatch(/^wamid\./);

      await eventually(() => expect(whatsappStatuses(receiver, wamid)).toHaveLength(3), {
        what: 'three status webhooks',
      });
      for (const r of at(receiver, '/wa')) {
        expect(r.headers['content-type']).toBe('application/json');
        expect(metaSignatureValid(r.raw, r.headers['x-hub-signature-256'])).toBe(true);
      }
      const statuses = whatsappStatuses(receiver, wamid);
      expect(statuses.map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
      for (const s of statuses) {
        expect(s).toMatchObject({
          id: wamid,
          recipient_id: '4915112345678',
          biz_opaque_callback_data: 'event-0001',
        });
      }
      const [captured] = await apiMessages(standIn);
      expect(captured).toEqual({
        id: wamid,
        channel: 'whatsapp',
        to: FAMILY,
        language: 'uk',
        template: 'mb_approved',
        text: 'Вашу заявку на «Шафа» (лот 12) схвалено.',
        status: 'read',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown as string,
      });
    });

    it('refuses a wrong token (401, code 190), an unknown template or language (132001) and a wrong parameter count (132000)', async () => {
      const path = `/${CREDENTIALS.whatsapp.phoneNumberId}/messages`;
      const wrong = await graph(standIn, path, templateSend(FAMILY, ['a', 'b']), 'not-the-token');
      expect(wrong.status).toBe(401);
      expect(((await wrong.json()) as { error: { code: number } }).error.code).toBe(190);

      for (const send of [
        templateSend(FAMILY, ['a', 'b'], 'mb_unknown'),
        templateSend(FAMILY, ['a', 'b'], 'mb_approved', 'de'),
      ]) {
        const res = await graph(standIn, path, send);
        expect(res.status).toBe(404);
        expect(((await res.json()) as { error: { code: number } }).error.code).toBe(132001);
      }
      const short = await graph(standIn, path, templateSend(FAMILY, ['nur einer']));
      expect(short.status).toBe(400);
      expect(((await short.json()) as { error: { code: number } }).error.code).toBe(132000);
      expect(await apiMessages(standIn)).toEqual([]);
    });

    it('lists templates and refuses the same name and language twice like Meta (100 / 2388024)', async () => {
      const path = `/${CREDENTIALS.whatsapp.businessAccountId}/message_templates`;
      const again = await graph(standIn, path, TEMPLATE);
      expect(again.status).toBe(400);
      expect(
        ((await again.json()) as { error: { code: number; error_subcode: number } }).error,
      ).toMatchObject({
        code: 100,
        error_subcode: 2388024,
      });
      const noExample = await graph(standIn, path, {
        ...TEMPLATE,
        language: 'de',
        components: [{ type: 'BODY', text: 'Lot {{1}}' }],
      });
      expect(noExample.status).toBe(400);
      const list = (await (await graph(standIn, path)).json()) as {
        data: Array<{ name: string; language: string; status: string }>;
      };
      expect(list.data).toEqual([
        expect.objectContaining({ name: 'mb_approved', language: 'uk', status: 'APPROVED' }),
      ]);
    });

    it('accepts a send to a number not on WhatsApp, then reports it failed with 131026', async () => {
      standIn.setBehaviour({ whatsappUnreachable: [FAMILY] });
      const res = await graph(
        standIn,
        `/${CREDENTIALS.whatsapp.phoneNumberId}/messages`,
        templateSend(FAMILY, ['Шафа', '12']),
      );
      expect(res.status).toBe(200);
      const wamid = ((await res.json()) as { messages: Array<{ id: string }> }).messages[0]?.id;
      await eventually(() => expect(whatsappStatuses(receiver, wamid)).toHaveLength(1), {
        what: 'the failed status',
      });
      const [failed] = whatsappStatuses(receiver, wamid);
      expect(failed?.status).toBe('failed');
      expect(failed?.errors?.[0]?.code).toBe(131026);
      expect((await apiMessages(standIn))[0]?.status).toBe('failed');
    });
  });

  describe('SMS', () => {
    it('answers 201 like Twilio and posts signed status callbacks sent → delivered to StatusCallback', async () => {
      const statusCallback = `${receiver.url}/api/v1/messages/callbacks/sms`;
      const res = await sendSms(standIn, {
        To: FAMILY,
        From: CREDENTIALS.sms.number,
        Body: 'Möbelbrücke: Ihr Antrag für „Schrank“ (Lot 12) ist genehmigt.',
        StatusCallback: statusCallback,
      });
      expect(res.status).toBe(201);
      const body = (await res.json()) as {
        sid: string;
        status: string;
        to: string;
        error_code: null;
      };
      expect(body.sid).toMatch(/^SM[0-9a-f]{32}$/);
      expect(body).toMatchObject({ status: 'queued', to: FAMILY, error_code: null });

      await eventually(
        () => expect(at(receiver, '/api/v1/messages/callbacks/sms')).toHaveLength(2),
        {
          what: 'two status callbacks',
        },
      );
      for (const r of at(receiver, '/api/v1/messages/callbacks/sms')) {
        expect(twilioSignatureValid(statusCallback, r.raw, r.headers['x-twilio-signature'])).toBe(
          true,
        );
        // the same body signed for another URL does not verify
        expect(
          twilioSignatureValid(`${statusCallback}?x=1`, r.raw, r.headers['x-twilio-signature']),
        ).toBe(false);
      }
      const forms = at(receiver, '/api/v1/messages/callbacks/sms').map((r) =>
        Object.fromEntries(new URLSearchParams(r.raw)),
      );
      expect(forms.map((f) => f.MessageStatus)).toEqual(['sent', 'delivered']);
      expect(forms[1]).toMatchObject({
        MessageSid: body.sid,
        To: FAMILY,
        From: CREDENTIALS.sms.number,
        AccountSid: CREDENTIALS.sms.accountSid,
      });
      const [captured] = await apiMessages(standIn);
      expect(captured).toMatchObject({
        id: body.sid,
        channel: 'sms',
        to: FAMILY,
        language: 'de',
        template: null,
        status: 'delivered',
      });
    });

    it('refuses wrong credentials (401, 20003) and an invalid To (400, 21211)', async () => {
      const wrong = await sendSms(
        standIn,
        { To: FAMILY, From: CREDENTIALS.sms.number, Body: 'x' },
        `${CREDENTIALS.sms.accountSid}:nope`,
      );
      expect(wrong.status).toBe(401);
      expect(((await wrong.json()) as { code: number }).code).toBe(20003);
      const badTo = await sendSms(standIn, {
        To: '0151 1234',
        From: CREDENTIALS.sms.number,
        Body: 'x',
      });
      expect(badTo.status).toBe(400);
      expect(((await badTo.json()) as { code: number }).code).toBe(21211);
      expect(await apiMessages(standIn)).toEqual([]);
    });

    it('reports an undeliverable number as undelivered with ErrorCode 30003', async () => {
      standIn.setBehaviour({ smsUndeliverable: [FAMILY] });
      const statusCallback = `${receiver.url}/sms-status`;
      const res = await sendSms(standIn, {
        To: FAMILY,
        From: CREDENTIALS.sms.number,
        Body: 'Ваша заявка схвалена.',
        StatusCallback: statusCallback,
      });
      expect(res.status).toBe(201);
      await eventually(() => expect(at(receiver, '/sms-status')).toHaveLength(2), {
        what: 'two status callbacks',
      });
      const last = Object.fromEntries(
        new URLSearchParams(at(receiver, '/sms-status')[1]?.raw ?? ''),
      );
      expect(last).toMatchObject({ MessageStatus: 'undelivered', ErrorCode: '30003' });
      expect((await apiMessages(standIn))[0]).toMatchObject({
        status: 'undelivered',
        language: 'uk',
      });
    });
  });

  it('drops the connections of a channel that is down, keeps /api up, and works again when up', async () => {
    const down = await fetch(`${standIn.apiUrl}/api/down`, {
      method: 'PUT',
      body: JSON.stringify({ channel: 'sms', down: true }),
    });
    expect(down.status).toBe(200);
    await expect(
      sendSms(standIn, { To: FAMILY, From: CREDENTIALS.sms.number, Body: 'x' }),
    ).rejects.toThrow();
    // WhatsApp is still up
    const wa = await graph(
      standIn,
      `/${CREDENTIALS.whatsapp.phoneNumberId}/messages`,
      templateSend(FAMILY, ['a', 'b']),
    );
    expect(wa.status).toBe(200);
    expect((await apiMessages(standIn)).map((m) => m.channel)).toEqual(['whatsapp']);

    standIn.setDown('sms', false);
    expect(
      (await sendSms(standIn, { To: FAMILY, From: CREDENTIALS.sms.number, Body: 'x' })).status,
    ).toBe(201);
  });

  it('posts a signed inbound STOP to the webhooks and answers the platform status', async () => {
    expect(await standIn.inbound('whatsapp', FAMILY, 'STOP')).toBe(200);
    const wa = at(receiver, '/wa').find((r) => r.raw.includes('"messages":['));
    expect(metaSignatureValid(wa?.raw ?? '', wa?.headers['x-hub-signature-256'])).toBe(true);
    const value = (
      JSON.parse(wa?.raw ?? '{}') as {
        entry: Array<{
          changes: Array<{ value: { messages: Array<{ from: string; text: { body: string } }> } }>;
        }>;
      }
    ).entry[0]?.changes[0]?.value;
    expect(value?.messages[0]).toMatchObject({ from: '4915112345678', text: { body: 'STOP' } });

    const res = await fetch(`${standIn.apiUrl}/api/inbound`, {
      method: 'POST',
      body: JSON.stringify({ channel: 'sms', from: FAMILY, text: 'СТОП' }),
    });
    expect(await res.json()).toEqual({ status: 200 });
    const sms = at(receiver, '/sms-in')[0];
    expect(
      twilioSignatureValid(
        `${receiver.url}/sms-in`,
        sms?.raw ?? '',
        sms?.headers['x-twilio-signature'],
      ),
    ).toBe(true);
    expect(Object.fromEntries(new URLSearchParams(sms?.raw ?? ''))).toMatchObject({
      From: FAMILY,
      To: CREDENTIALS.sms.number,
      Body: 'СТОП',
      SmsStatus: 'received',
      AccountSid: CREDENTIALS.sms.accountSid,
    });
  });

  it('lists messages newest first, filtered by number and channel, and deletes them', async () => {
    const other = '+4917612345678';
    await sendSms(standIn, { To: FAMILY, From: CREDENTIALS.sms.number, Body: 'eins' });
    await graph(
      standIn,
      `/${CREDENTIALS.whatsapp.phoneNumberId}/messages`,
      templateSend(other, ['a', 'b']),
    );
    await sendSms(standIn, { To: other, From: CREDENTIALS.sms.number, Body: 'drei <b>' });

    const all = await apiMessages(standIn);
    expect(all.map((m) => [m.channel, m.to])).toEqual([
      ['sms', other],
      ['whatsapp', other],
      ['sms', FAMILY],
    ]);
    // '+' of an unencoded query string arrives as a space: both spellings find the number
    expect((await apiMessages(standIn, `?to=${other}`)).length).toBe(2);
    expect(
      (await apiMessages(standIn, `?to=${encodeURIComponent(other)}&channel=sms`)).map(
        (m) => m.text,
      ),
    ).toEqual(['drei <b>']);
    expect(Object.keys(all[0] ?? {}).sort()).toEqual(
      ['channel', 'created_at', 'id', 'language', 'template', 'text', 'to', 'status'].sort(),
    );

    const page = await (await fetch(`${standIn.apiUrl}/`)).text();
    expect(page).toContain('drei &#60;b&#62;');
    expect(page).not.toContain('drei <b>');

    expect((await fetch(`${standIn.apiUrl}/api/messages`, { method: 'DELETE' })).status).toBe(200);
    expect(await apiMessages(standIn)).toEqual([]);
  });

  it('retries a status webhook the receiver could not take (503) and never crashes on one nobody takes', async () => {
    let answers = 0;
    // the first webhook about this test's message is answered 503
    const flaky = await startReceiver((raw) =>
      raw.includes('"biz_opaque_callback_data":"retry-me"') && ++answers === 1 ? 503 : 200,
    );
    standIn.setWebhookUrls({ whatsapp: `${flaky.url}/wa` });
    try {
      const res = await graph(
        standIn,
        `/${CREDENTIALS.whatsapp.phoneNumberId}/messages`,
        templateSend(FAMILY, ['a', 'b'], 'mb_approved', 'uk', 'retry-me'),
      );
      expect(res.status).toBe(200);
      // statuses of earlier tests' messages may still arrive: only this message's count
      const mine = () =>
        whatsappStatuses(flaky).filter((s) => s.biz_opaque_callback_data === 'retry-me');
      await eventually(
        () => expect(mine().map((s) => s.status)).toEqual(['sent', 'sent', 'delivered', 'read']),
        {
          what: 'the statuses with the first one retried',
        },
      );
    } finally {
      await flaky.close();
    }
    // nothing listens there any more: the stand-in keeps going
    await graph(
      standIn,
      `/${CREDENTIALS.whatsapp.phoneNumberId}/messages`,
      templateSend(FAMILY, ['a', 'b']),
    );
    await eventually(async () => expect((await apiMessages(standIn))[0]?.status).toBe('read'), {
      what: 'the last status',
    });
    standIn.setWebhookUrls({ whatsapp: `${receiver.url}/wa` });
  });
});

describe('messages stand-in with a folder', () => {
  it('keeps messages and templates across a restart', async () => {
    const dir = freshDir('messages-standin');
    const first = await startMessagesStandIn({ ...CREDENTIALS, dir, callbackDelayMs: 10 });
    try {
      await graph(first, `/${CREDENTIALS.whatsapp.businessAccountId}/message_templates`, TEMPLATE);
      await graph(
        first,
        `/${CREDENTIALS.whatsapp.phoneNumberId}/messages`,
        templateSend(FAMILY, ['Шафа', '12']),
      );
      await sendSms(first, { To: FAMILY, From: CREDENTIALS.sms.number, Body: 'Hallo' });
      await eventually(() => expect(first.messages()[1]?.status).toBe('read'), {
        what: 'the WhatsApp message read',
      });
    } finally {
      await first.stop();
    }
    const before = first.messages();
    const second = await startMessagesStandIn({ ...CREDENTIALS, dir });
    try {
      expect(second.messages()).toEqual(before);
      expect(await apiMessages(second)).toEqual(before);
      const again = await graph(
        second,
        `/${CREDENTIALS.whatsapp.phoneNumberId}/messages`,
        templateSend(FAMILY, ['a', 'b']),
      );
      expect(again.status).toBe(200);
    } finally {
      await second.stop();
    }
  });
});
