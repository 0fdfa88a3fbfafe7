/**
 * The mails of partner agencies (issue 44) on the real SMTP catcher and broker: an admin's
 * invitation reaches the invitee in the language the admin chose, with the personal link, once
 * per event; the activity log keeps the invitation without its link.
 */
import { Events, type Language } from '@furniture/contracts';
import { createEvent } from '@furniture/platform';
import { eventually, testUrls } from '@furniture/platform/testing';
import { family, freshAddress, freshId, statusChange, submitted } from './events';
import { startNotification, type NotificationUnderTest } from './harness';
import { mailbox } from './mailbox';

let svc: NotificationUnderTest;
let box: ReturnType<typeof mailbox>;

beforeAll(async () => {
  svc = await startNotification();
  box = mailbox(testUrls().mailApiUrl);
});
afterAll(async () => {
  await svc?.stop();
});

const admin = { id: 1, name: 'Erste Admin', email: 'admin@example.org', role: 'admin' as const };

function invited(email: string, language: Language, secret: string) {
  return createEvent(
    Events.ReferrerInvited,
    {
      agency: { id: 7, name: 'Caritas Leipzig' },
      email,
      language,
      invite_url: `https://moebel.example.org/admin/invitation/${secret}`,
      expires_at: '2026-12-21T08:00:00.000Z',
    },
    admin,
  );
}

describe('the invitation of a referrer', () => {
  test.each([
    ['de', 'Einladung: Familien von Caritas Leipzig', 'Einladung annehmen', '21.12.2026'],
    [
      'uk',
      'Запрошення: реєструйте родини від Caritas Leipzig',
      'Прийняти запрошення',
      '21.12.2026',
    ],
  ] as const)(
    'when an admin invites in %s, then the invitee gets one mail in that language with the link',
    async (language, subject, action, day) => {
      const to = freshAddress('referrer');
      const secret = `${language}${'0'.repeat(62)}`;
      const event = invited(to, language, secret);
      await svc.publish(event);
      await svc.publish(event); // redelivered: still one mail
      const [mail] = await box.waitFor(to, 1);
      expect(mail!.Subject).toContain(subject);
      expect(mail!.Text).toContain(action);
      expect(mail!.Text).toContain(`https://moebel.example.org/admin/invitation/${secret}`);
      expect(mail!.Text).toContain(day);
      await new Promise((r) => setTimeout(r, 500));
      expect(await box.to(to)).toHaveLength(1);

      const entry = await eventually(
        async () =>
          (
            await svc.conn
              .collection('activity_logs')
              .find({ target_type: 'agency', target_id: 7, action_type: 'INVITE' })
              .toArray()
          ).find((e) => String(e.details_json).includes(to)),
        { timeoutMs: 10000, what: 'the INVITE entry' },
      );
      expect(JSON.stringify(entry)).not.toContain(secret);
    },
  );
});

describe("a referred family's news for its referrer", () => {
  const referrer = (language: Language) => ({
    name: 'Petra Sozial',
    email: freshAddress('referrer'),
    language,
    agency_name: 'Caritas Leipzig',
  });

  test('when a referred family is approved, then the referrer gets a German mail with the pickup date and the booking link, besides the family’s own', async () => {
    const r = referrer('de');
    const f = family({ language: 'uk', name: 'Iryna Bondarenko' });
    const approved = statusChange(Events.ApplicationApproved, f, {
      pickupBy: '2026-12-18',
      handoverUrl: `https://moebel.example/handover/tok-${f.applicationId}`,
    });
    const event = { ...approved, payload: { ...approved.payload, referrer: r } };
    await svc.publish(event);
    await svc.publish(event); // redelivered: still one of each
    const [mail] = await box.waitFor(r.email, 1);
    expect(mail!.Subject).toContain('Iryna Bondarenko: genehmigt');
    expect(mail!.Text).toContain('Guten Tag Petra Sozial');
    expect(mail!.Text).toContain('18.12.2026');
    expect(mail!.Text).toContain(`https://moebel.example/handover/tok-${f.applicationId}`);
    const [own] = await box.waitFor(f.email!, 1);
    expect(own!.Subject).not.toContain('genehmigt'); // the family's is in Ukrainian
    await new Promise((res) => setTimeout(res, 500));
    expect(await box.to(r.email)).toHaveLength(1);
    expect(await box.to(f.email!)).toHaveLength(1);
  });

  test('when a referred family without an address is rejected or handed over, then its Ukrainian-speaking referrer is still told, in Ukrainian', async () => {
    const r = referrer('uk');
    const f = family({ email: null, name: 'Olha' });
    const rejected = statusChange(Events.ApplicationRejected, f);
    const completed = statusChange(Events.ApplicationCompleted, f);
    await svc.publish({ ...rejected, payload: { ...rejected.payload, referrer: r } });
    await svc.publish({ ...completed, payload: { ...completed.payload, referrer: r } });
    const mails = await box.waitFor(r.email, 2);
    const subjects = mails.map((m) => m.Subject).join(' | ');
    expect(subjects).toContain('Olha: на жаль, не схвалено');
    expect(subjects).toContain('Olha: меблі передано');
  });

  test('when a referral expires, then family and referrer are told it expired, each in its language', async () => {
    const r = referrer('de');
    const f = family({ language: 'uk', name: 'Mariia' });
    const expired = statusChange(Events.ApplicationRejected, f, {
      reason: 'referral_expired',
      actor: null,
    });
    await svc.publish({ ...expired, payload: { ...expired.payload, referrer: r } });
    const [toReferrer] = await box.waitFor(r.email, 1);
    expect(toReferrer!.Subject).toContain('Mariia: Vermittlung abgelaufen');
    const [toFamily] = await box.waitFor(f.email!, 1);
    expect(toFamily!.Text).toContain('не було розглянуто протягом 30 днів');
  });

  test('when a family applied by itself, then nobody but the family is mailed', async () => {
    const f = family();
    await svc.publish(statusChange(Events.ApplicationApproved, f, { pickupBy: '2026-12-18' }));
    await box.waitFor(f.email!, 1);
    const records = await svc.conn
      .collection('mails')
      .find({ application_id: f.applicationId })
      .toArray();
    expect(records.map((m) => m.kind)).toEqual(['approved']);
  });
});

describe('the log says who referred whom', () => {
  test("when a referrer refers a family for a lot and as a wish, then each has a REFER entry naming family, agency and referrer; the family's erasure takes the family and leaves who referred", async () => {
    const agency = { id: freshId(), name: 'Caritas Leipzig' };
    const referral = () => ({
      id: freshId(),
      agency,
      referrer: { id: 901, name: 'Petra Sozial' },
    });
    const f = family({ name: 'Iryna Bondarenko' });
    const own = submitted(f);
    const app = { ...own, payload: { ...own.payload, referral: referral() } };
    const wishId = freshId();
    const wish = createEvent(Events.WishCreated, {
      wish_id: wishId,
      applicant_name: 'Iryna Bondarenko',
      furniture_category: 2,
      status: 'active',
      referral: referral(),
    });
    await svc.publish(app);
    await svc.publish(wish);
    await svc.handled(app);
    await svc.handled(wish);
    const entryOf = (target: string, id: number) =>
      svc.conn
        .collection('activity_logs')
        .findOne({ target_type: target, target_id: id, action_type: 'REFER' });
    for (const [target, id] of [
      ['application', f.applicationId],
      ['wish', wishId],
    ] as const) {
      const entry = await entryOf(target, id);
      expect(entry).not.toBeNull();
      const details = JSON.parse(String(entry!.details_json));
      expect(details).toMatchObject({
        applicant_name: 'Iryna Bondarenko',
        agency_id: agency.id,
        agency: 'Caritas Leipzig',
        referrer_id: 901,
        referrer: 'Petra Sozial',
      });
    }

    const erasure = createEvent(
      Events.PersonalDataErased,
      { reason: 'request', application_ids: [f.applicationId], wish_ids: [wishId] },
      admin,
    );
    await svc.publish(erasure);
    await svc.handled(erasure);
    for (const [target, id] of [
      ['application', f.applicationId],
      ['wish', wishId],
    ] as const) {
      const entry = await eventually(
        async () => {
          const e = await entryOf(target, id);
          return e && !String(e.details_json).includes('Iryna') ? e : undefined;
        },
        { what: `the ${target}'s REFER entry without the family` },
      );
      expect(JSON.parse(String(entry.details_json))).toMatchObject({
        agency: 'Caritas Leipzig',
        referrer: 'Petra Sozial',
      });
      expect(JSON.stringify(entry)).not.toContain('Bondarenko');
    }
  });
});
