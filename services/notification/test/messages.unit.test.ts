import { createEvent } from '@furniture/platform';
import { Events } from '@furniture/contracts';
import { twilioSignature as standInTwilio, whatsappSignature } from '@furniture/infra';
import {
  budgetState,
  chooseChannel,
  keywordOf,
  maskNumber,
  monthOf,
  phoneHash,
  type ChannelView,
} from '../src/messages/domain/channels';
import { draftOf, type MessageContext } from '../src/messages/domain/message-facts';
import { MessageKinds, MessageTemplates } from '../src/messages/domain/message-templates';
import { statusesBefore } from '../src/messages/domain/message-types';
import {
  smsCallbacks,
  twilioSignature,
  verifyHubSignature,
  whatsappCallbacks,
} from '../src/messages/integrations/callbacks';
import { classifySms } from '../src/messages/integrations/sms-client';
import { classifyWhatsApp } from '../src/messages/integrations/whatsapp-client';
import { family, handoverBooked, slot, statusChange, submitted } from './events';

const ctx: MessageContext = {
  siteName: 'Möbelbrücke',
  publicBaseUrl: 'https://moebel.example',
  timeZone: 'Europe/Berlin',
  contact: '+49 30 5550100',
};
const numbers = { applicant_phone: '+4915112345678', applicant_whatsapp: '+4915187654321' };

describe('message templates', () => {
  test('every template numbers its parameters 1..n without gaps, neither starts nor ends with one, in both languages', () => {
    for (const kind of MessageKinds) {
      const t = MessageTemplates[kind];
      for (const text of [t.de, t.uk]) {
        const used = [...text.matchAll(/\{\{(\d+)\}\}/g)].map((m) => Number(m[1]));
        expect(new Set(used)).toEqual(new Set(t.params.map((_p, i) => i + 1)));
        expect(text.trim().startsWith('{{')).toBe(false);
        expect(text.trim().endsWith('}}')).toBe(false);
      }
    }
  });

  test('an approval in Ukrainian names the lot and its number, the date in the office zone and the handover link, and no family name', () => {
    const f = family({ language: 'uk', name: 'Олена Коваленко' });
    const e = statusChange(Events.ApplicationApproved, f, {
      pickupBy: '2026-12-04',
      handoverUrl: 'https://moebel.example/handover/tok-1',
    });
    const d = draftOf({ ...e, payload: { ...e.payload, ...numbers } }, ctx)!;
    expect(d.template).toBe('mb_approved');
    expect(d.language).toBe('uk');
    expect(d.params).toEqual([
      String(f.applicationId),
      'Кутовий диван сірий',
      String(f.lotId),
      '04.12.2026',
      'https://moebel.example/handover/tok-1',
      '+49 30 5550100',
    ]);
    expect(d.text).toContain('«Кутовий диван сірий» (лот №');
    expect(d.text).toContain('до 04.12.2026');
    expect(d.text).not.toContain('Олена');
    expect(d.whatsapp_to).toBe('+4915187654321');
    expect(d.sms_to).toBe('+4915112345678');
  });

  test('a handover booking gives the slot as the family reads it in Berlin time, in German', () => {
    const f = family();
    const d = draftOf(handoverBooked(slot(), f), ctx)!;
    expect(d.text).toContain('Dienstag, 01.12.2026, 10:00–12:00 Uhr');
    expect(d.text).toContain('Lager Nord, Hafenweg 3, 13353 Berlin');
    expect(d.text).not.toContain(f.name);
  });

  test('a submission without numbers (an event of an earlier version) still drafts, with no number for either channel', () => {
    const d = draftOf(submitted(family()), ctx)!;
    expect(d.whatsapp_to).toBeNull();
    expect(d.sms_to).toBeNull();
  });

  test('a prepared message from a wish asks the family to call, naming the wish', () => {
    const e = createEvent(Events.MessageRequested, {
      application_id: null,
      wish_id: 77,
      lot_id: null,
      lot_name: null,
      template: 'call_office',
      applicant_name: 'Olena',
      applicant_email: null,
      language: 'de',
      ...numbers,
    });
    const d = draftOf(e, ctx)!;
    expect(d.kind).toBe('staff_call_office');
    expect(d.thread).toEqual({ wish_id: 77 });
    expect(d.text).toBe(
      'Möbelbrücke: Bitte melden Sie sich bei uns wegen Ihrer Anfrage Nr. 77: +49 30 5550100. Vielen Dank! Keine Nachrichten mehr? Antworten Sie STOP.',
    );
  });
});

describe('channel choice', () => {
  const on = (opted = false, spent = false): ChannelView => ({
    enabled: true,
    optedOut: async () => opted,
    spent: async () => spent,
  });
  const off: ChannelView = {
    enabled: false,
    optedOut: async () => false,
    spent: async () => false,
  };
  const m = { whatsapp_to: '+491511', sms_to: '+491512', failed_channels: [], steps: [] };

  test('WhatsApp first; SMS when WhatsApp is opted out, failed or off', async () => {
    expect(await chooseChannel(m, { whatsapp: on(), sms: on() })).toMatchObject({
      channel: 'whatsapp',
      to: '+491511',
    });
    expect(await chooseChannel(m, { whatsapp: on(true), sms: on() })).toMatchObject({
      channel: 'sms',
      to: '+491512',
    });
    expect(
      await chooseChannel({ ...m, failed_channels: ['whatsapp'] }, { whatsapp: on(), sms: on() }),
    ).toMatchObject({ channel: 'sms' });
    expect(await chooseChannel(m, { whatsapp: off, sms: on() })).toMatchObject({ channel: 'sms' });
  });

  test('nowhere to go: skipped with the telling reason; failed after a channel failed', async () => {
    expect(await chooseChannel(m, { whatsapp: off, sms: off })).toMatchObject({
      channel: null,
      final: 'skipped',
      reason: 'channels_off',
    });
    expect(await chooseChannel(m, { whatsapp: on(true), sms: on(true) })).toMatchObject({
      final: 'skipped',
      reason: 'opted_out',
    });
    expect(await chooseChannel(m, { whatsapp: on(false, true), sms: off })).toMatchObject({
      final: 'skipped',
      reason: 'budget_spent',
    });
    expect(
      await chooseChannel({ ...m, whatsapp_to: null, sms_to: null }, { whatsapp: on(), sms: on() }),
    ).toMatchObject({ final: 'skipped', reason: 'no_number' });
    expect(
      await chooseChannel(
        {
          ...m,
          failed_channels: ['whatsapp', 'sms'],
          steps: [{ channel: 'sms', status: 'failed', at: '', error: 'undelivered: 30003' }],
        },
        { whatsapp: on(), sms: on() },
      ),
    ).toMatchObject({ final: 'failed', reason: 'undelivered' });
  });

  test('STOP words in German, Ukrainian and English; START opts back in; anything else is no keyword', () => {
    for (const w of ['STOP', ' stop ', 'Stopp!', 'стоп', 'ABMELDEN', 'unsubscribe'])
      expect(keywordOf(w)).toBe('stop');
    for (const w of ['START', 'старт']) expect(keywordOf(w)).toBe('start');
    for (const w of ['Danke', 'stop it', '']) expect(keywordOf(w)).toBeNull();
  });

  test('budget warning at 80 %, spent at 100 %, none without a budget; months in Berlin time', () => {
    expect(budgetState(7, 10)).toEqual({ warning: false, spent: false });
    expect(budgetState(8, 10)).toEqual({ warning: true, spent: false });
    expect(budgetState(10, 10)).toEqual({ warning: true, spent: true });
    expect(budgetState(1000, 0)).toEqual({ warning: false, spent: false });
    expect(monthOf(new Date('2026-11-30T23:30:00Z'), 'Europe/Berlin')).toBe('2026-12');
  });

  test('statuses move forward only; numbers are hashed and masked', () => {
    expect(statusesBefore('delivered')).toEqual(['sent']);
    expect(statusesBefore('read')).toEqual(['sent', 'delivered']);
    expect(statusesBefore('sent')).toEqual([]);
    expect(phoneHash('+4915112345678')).toMatch(/^[0-9a-f]{64}$/);
    expect(maskNumber('+4915112345678')).toBe('+49 151 ••• 678');
  });
});

describe('providers', () => {
  test('errors are classified: rate limits and 5xx temporary, everything else permanent', () => {
    expect(classifyWhatsApp(429, {})).toBe('temporary');
    expect(classifyWhatsApp(503, {})).toBe('temporary');
    expect(classifyWhatsApp(400, { error: { code: 130429 } })).toBe('temporary');
    expect(classifyWhatsApp(404, { error: { code: 132001 } })).toBe('permanent');
    expect(classifyWhatsApp(400, { error: { code: 131026 } })).toBe('permanent');
    expect(classifyWhatsApp(401, { error: { code: 190 } })).toBe('permanent');
    expect(classifySms(429, {})).toBe('temporary');
    expect(classifySms(400, { code: 20429 })).toBe('temporary');
    expect(classifySms(500, {})).toBe('temporary');
    expect(classifySms(400, { code: 21211 })).toBe('permanent');
    expect(classifySms(400, { code: 21610 })).toBe('permanent');
  });

  test("signatures agree with the stand-in's (the providers' documented algorithms); a changed byte is refused", () => {
    const raw = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');
    expect(verifyHubSignature('s3cret', raw, whatsappSignature('s3cret', raw))).toBe(true);
    expect(
      verifyHubSignature('s3cret', Buffer.from(`${raw} `), whatsappSignature('s3cret', raw)),
    ).toBe(false);
    expect(verifyHubSignature('s3cret', raw, undefined)).toBe(false);
    const params = { MessageSid: 'SM1', MessageStatus: 'delivered', To: '+4915112345678' };
    const url = 'https://moebel.example/api/v1/messages/callbacks/sms';
    expect(twilioSignature('tok', url, Object.entries(params))).toBe(
      standInTwilio('tok', url, params),
    );
    const reader = smsCallbacks('tok', url);
    const body = Buffer.from(new URLSearchParams(params).toString());
    expect(reader.verify(body, standInTwilio('tok', url, params))).toBe(true);
    expect(reader.verify(body, standInTwilio('tok', `${url}x`, params))).toBe(false);
    expect(reader.read(body)).toEqual({
      reports: [{ channel: 'sms', providerId: 'SM1', status: 'delivered', error: null }],
      inbound: [],
    });
  });

  test('a malformed webhook body is no callback at all', () => {
    expect(whatsappCallbacks('s').read(Buffer.from('{nope'))).toBeNull();
    expect(whatsappCallbacks('s').read(Buffer.from('[1,2]'))).toBeNull();
    expect(smsCallbacks('t', 'https://x').read(Buffer.from('a=b'))).toBeNull();
  });
});
