// Data protection (issue 15): a family applies and wishes, is rejected and mailed; the
// administrator finds everything stored about its phone number on the back-office's data
// protection page, erases it after the confirmation dialog, and afterwards neither the API nor
// any service's database holds the number, the name, the e-mail or the address.
import { MongoClient } from 'mongodb';
import { dialog, screenshot, visible } from '../support/browser';
import { eventually } from '../support/api';
import { startsWith, t } from '../support/i18n';
import type { World } from '../support/world';

const FAMILY = {
  name: 'Svitlana Privatna',
  phone: '0157 3344 5566',
  e164: '+4915733445566',
  email: 'svitlana.privatna@example.org',
  address: 'Datenschutzweg 15',
};
const TRACES = [FAMILY.e164, FAMILY.phone, '15733445566', 'Privatna', FAMILY.email, FAMILY.address];

/** Every document of every service database that still holds a trace of the family. */
async function tracesInDatabases(mongoUrl: string): Promise<string[]> {
  const client = new MongoClient(mongoUrl, { serverSelectionTimeoutMS: 20_000 });
  await client.connect();
  try {
    const found: string[] = [];
    const { databases } = await client.db().admin().listDatabases();
    for (const { name: dbName } of databases.filter((d) => d.name.startsWith('furniture_'))) {
      const db = client.db(dbName);
      for (const { name } of await db.listCollections().toArray()) {
        for (const doc of await db.collection(name).find({}).toArray()) {
          const text = JSON.stringify(doc);
          for (const trace of TRACES)
            if (text.includes(trace)) found.push(`${dbName}.${name}: ${trace}`);
        }
      }
    }
    return found;
  } finally {
    await client.close();
  }
}

export function privacyScenario(world: World): void {
  test('an administrator erases a phone number and no service keeps a trace of it', () =>
    world.scenario('privacy erasure', async () => {
      const api = world.admin;
      const lot = await api.createLot({
        category_id: 3,
        status: 'available',
        name: { de: 'Kleiner Beistelltisch', uk: 'Маленький столик' },
        description: { de: 'Für das Wohnzimmer.', uk: 'Для вітальні.' },
      });
      await world.waitForApplicable(lot.id);
      const applied = await api.call<{ id: number }>('POST', '/applications/', {
        body: {
          applicant_name: FAMILY.name,
          applicant_phone: FAMILY.phone,
          applicant_whatsapp: FAMILY.phone,
          applicant_email: FAMILY.email,
          applicant_city: 'Berlin',
          applicant_address: FAMILY.address,
          needs_delivery_help: false,
          lot_id: lot.id,
        },
      });
      const wish = await api.call<{ id: number }>('POST', '/wishes/', {
        body: {
          applicant_name: FAMILY.name,
          applicant_whatsapp: FAMILY.phone,
          applicant_email: FAMILY.email,
          furniture_category: 2,
          furniture_description: `Ein Bett für ${FAMILY.name}`,
        },
      });
      await api.call('PATCH', `/applications/${applied.id}/status`, {
        body: { status: 'rejected', note: `${FAMILY.name} hat abgesagt` },
      });
      await api.call('PATCH', `/wishes/${wish.id}/status?status=cancelled`, {
        body: { admin_notes: `${FAMILY.name} braucht nichts mehr` },
      });
      // the family got its mails, and the notification service keeps their records
      await world.mail.waitFor(FAMILY.email, /Bewerbung Nr\./);
      const ids = { application_ids: [applied.id], wish_ids: [wish.id] };
      await eventually('the mail records of the family', async () => {
        const r = await api.call<{ mails: unknown[] }>('POST', '/privacy/records', { body: ids });
        return r.mails.length >= 2;
      });

      // the data protection page: sidebar entry, lookup, confirmation, erasure
      const page = await world.adminPage('/admin/categories');
      await page
        .getByRole('navigation', { name: t('de', 'admin:layout.navigation') })
        .getByRole('link', { name: t('de', 'admin:nav.privacy') })
        .click();
      await visible(page.getByRole('heading', { level: 1, name: t('de', 'admin:privacy.title') }));
      await page.getByLabel(startsWith(t('de', 'admin:privacy.phone'))).fill(FAMILY.phone);
      await page.getByRole('button', { name: t('de', 'admin:privacy.search') }).click();
      const summary = await visible(page.getByTestId('privacy-summary'));
      expect(await summary.textContent()).toMatch(/1 Bewerbung\(en\), 1 Wunsch/);
      await visible(page.getByTestId('privacy-applications').getByText(FAMILY.name));
      await screenshot(page, 'flow-privacy-lookup');

      await page.getByRole('button', { name: t('de', 'admin:privacy.erase') }).click();
      const confirm = await dialog(page, t('de', 'admin:privacy.confirmTitle'), 'alertdialog');
      await screenshot(page, 'flow-privacy-confirm', { fullPage: false });
      await confirm.getByRole('button', { name: t('de', 'admin:privacy.confirmErase') }).click();
      await visible(page.getByRole('status').filter({ hasText: /Gelöscht: 1 Bewerbung/ }));
      await visible(page.getByText(t('de', 'admin:privacy.nothing')));

      // the API finds nothing any more, the mails are gone, the log entries hold no trace
      const lookup = await api.call<{ applications: unknown[]; wishes: unknown[] }>(
        'POST',
        '/privacy/lookup',
        { body: { phone: FAMILY.e164 } },
      );
      expect(lookup).toMatchObject({ applications: [], wishes: [] });
      const records = await eventually('the mails gone and the log stripped', async () => {
        const r = await api.call<{ mails: unknown[]; activity: { action_type: string }[] }>(
          'POST',
          '/privacy/records',
          { body: ids },
        );
        const text = JSON.stringify(r);
        const erasures = r.activity.filter((e) => e.action_type === 'ERASE').length;
        return r.mails.length === 0 &&
          erasures === 2 &&
          TRACES.every((trace) => !text.includes(trace))
          ? r
          : undefined;
      });
      expect(records.activity.filter((e) => e.action_type === 'ERASE')).toHaveLength(2);

      // and no database of any service holds it
      const left = await eventually(
        'no trace of the family in any database',
        async () => {
          const found = await tracesInDatabases(world.stack.mongoUrl);
          return found.length === 0 ? found : undefined;
        },
        60_000,
      ).catch(() => tracesInDatabases(world.stack.mongoUrl));
      expect(left).toEqual([]);
    }));
}
