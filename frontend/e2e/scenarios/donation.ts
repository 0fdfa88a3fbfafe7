// A donor on a phone offers furniture in Ukrainian with two photos (a 4000x3000 one, shrunk in the
// browser before its upload, and a small one, sent as it is), with a progress bar per photo; staff
// accept the donation and make a lot of its item; the lot is public with the donor's photos, the
// donor finds the donation by phone, and the donor's mails reach the catcher (issue 28).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { dialog, screenshot, visible } from '../support/browser';
import { exactly, startsWith, t } from '../support/i18n';
import { writeJpegs } from '../support/photos';
import { progressSeen, recordProgressBars, recordSentFiles, sentFiles } from '../support/uploads';
import { dayAhead } from '../support/seed';
import type { World } from '../support/world';
import { viaPhoneMenu } from './family';

/** A pattern for a translated text with a number in place of {{id}}; the number is group 1. */
function withNumber(text: string): RegExp {
  const [before, after] = text.split('§') as [string, string];
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`${escape(before)}(\\d+)${escape(after)}`);
}

/** "24.11.2026" for a day `days` from today (the date field's format in both languages). */
const typedDay = (days: number) => dayAhead(days).split('-').reverse().join('.');

export function donationScenario(world: World): void {
  test('a donor offers furniture in Ukrainian with two photos (one shrunk in the browser); staff accept it and make a lot of the item; the lot is public with the donor’s photos and the donor’s mails arrive', () =>
    world.scenario('donation', async () => {
      const lang = 'uk';
      const donor = {
        name: 'Оксана Петренко',
        phone: '0176 5550 2811',
        email: 'oksana.petrenko@spender.example',
        city: 'Leipzig',
        address: 'Ringweg 3',
      };
      const category = world.category(1);
      const description = 'Сірий тримісний диван, розкладається, чистий, без плям.';
      const { paths } = await writeJpegs([
        { name: 'dyvan-telefon.jpg', kind: 'sofa', hue: 15, size: { width: 4000, height: 3000 } },
        { name: 'dyvan-malyi.jpg', kind: 'sofa', hue: 220 },
      ]);
      const small = createHash('sha256').update(fs.readFileSync(paths[1]!)).digest('hex');

      // the donate page from the phone's menu
      const page = await (await world.phone('uk-UA')).newPage();
      await page.goto('/');
      await viaPhoneMenu(page, lang, t(lang, 'nav.donate'));
      await page.waitForURL('**/donate');
      await visible(page.getByRole('heading', { level: 1, name: t(lang, 'donate:title') }));
      const main = page.getByRole('main');
      const box = (label: string) => main.getByRole('textbox', { name: startsWith(label) });
      await box(t(lang, 'donate:donor.name')).fill(donor.name);
      await main
        .getByRole('textbox', { name: exactly(t(lang, 'donate:donor.phone')) })
        .fill(donor.phone);
      await box(t(lang, 'donate:donor.email')).fill(donor.email);
      expect(
        await main
          .getByRole('combobox', { name: startsWith(t(lang, 'donate:donor.language')) })
          .inputValue(),
      ).toBe('uk');
      await box(t(lang, 'donate:pickup.city')).fill(donor.city);
      await box(t(lang, 'donate:pickup.address')).fill(donor.address);
      await box(t(lang, 'donate:pickup.floor')).fill('2');
      await box(t(lang, 'donate:pickup.availableUntil')).fill(typedDay(30));
      const item = main.getByRole('listitem', { name: t(lang, 'donate:item.title', { n: 1 }) });
      await item
        .getByRole('combobox', { name: startsWith(t(lang, 'donate:item.category')) })
        .selectOption({ label: category.name.uk });
      await item
        .getByRole('textbox', { name: startsWith(t(lang, 'donate:item.description')) })
        .fill(description);
      await item
        .getByRole('combobox', { name: startsWith(t(lang, 'donate:item.condition')) })
        .selectOption('good');
      await item.getByLabel(startsWith(t(lang, 'donate:photos.choose'))).setInputFiles(paths);
      await visible(
        item.getByRole('img', { name: t(lang, 'donate:photos.photoOf', { n: 2, item: 1 }) }),
      );
      await main
        .getByRole('checkbox', { name: startsWith(t(lang, 'donate:consent.label')) })
        .check();
      await main
        .getByRole('checkbox', { name: startsWith(t(lang, 'donate:namePublic.label')) })
        .check();

      // sent: the number at once, then each photo with its progress bar
      await recordSentFiles(page);
      await recordProgressBars(page);
      await main.getByRole('button', { name: t(lang, 'donate:submit') }).click();
      const received = await visible(
        main.getByRole('heading', {
          name: withNumber(t(lang, 'donate:received.title', { id: '§' })),
        }),
      );
      const donationId = Number(
        withNumber(t(lang, 'donate:received.title', { id: '§' })).exec(
          (await received.textContent()) ?? '',
        )?.[1],
      );
      expect(donationId).toBeGreaterThan(0);
      await visible(main.getByText(t(lang, 'donate:uploads.allDone')));
      await screenshot(page, 'flow-donation-received-phone');
      const seen = await progressSeen(page);
      for (const n of [1, 2]) {
        const values = seen[t(lang, 'donate:uploads.photoLabel', { n, item: 1 })];
        expect(values?.[0]).toBe(0);
        expect(values?.at(-1)).toBe(100);
      }
      // the phone's photo went up shrunk to 2560 px as WebP, the small one as it was
      expect(await sentFiles(page)).toEqual([
        {
          name: 'dyvan-telefon.webp',
          type: 'image/webp',
          width: 2560,
          height: 1920,
          sha256: expect.any(String),
        },
        { name: 'dyvan-malyi.jpg', type: 'image/jpeg', width: 1200, height: 800, sha256: small },
      ]);
      await world.mail.waitFor(donor.email, new RegExp(`пожертву № ${donationId} отримано`));

      // staff accept it
      const admin = await world.adminPage('/admin/donations');
      await visible(
        admin.getByRole('heading', { level: 1, name: t('de', 'admin:donations.title') }),
      );
      await admin.getByRole('main').getByRole('link', { name: donor.name }).first().click();
      await admin.waitForURL(`**/admin/donations/${donationId}`);
      await visible(
        admin.getByRole('heading', {
          level: 1,
          name: t('de', 'admin:donations.detailTitle', { id: donationId }),
        }),
      );
      expect(await admin.locator('a[href^="tel:"]').first().getAttribute('href')).toBe(
        'tel:+4917655502811',
      );
      await admin
        .getByRole('button', { name: t('de', 'admin:donations.actions.accepted') })
        .click();
      const accept = await dialog(
        admin,
        t('de', 'admin:donations.actionTitle.accepted', { id: donationId }),
      );
      await accept
        .getByRole('button', { name: t('de', 'admin:donations.actions.accepted') })
        .click();
      await accept.waitFor({ state: 'detached' });

      // "Lot anlegen" from the item: the form is filled from it, the donor's photos shown
      await admin
        .getByRole('link', {
          name: `${t('de', 'admin:donations.makeLot')} (${t('de', 'admin:donations.itemTitle', { n: 1 })})`,
        })
        .click();
      await admin.waitForURL('**/items/*/lot');
      const form = admin.getByRole('main');
      const field = (key: string) =>
        form.getByLabel(startsWith(t('de', `admin:lots.fields.${key}`)));
      expect(await field('descriptionUk').inputValue()).toBe(description);
      expect(await field('donor').inputValue()).toBe(donor.name);
      expect(await field('location').inputValue()).toBe(donor.city);
      expect(await field('categoryId').inputValue()).toBe(String(category.id));
      await visible(form.getByRole('img', { name: t('de', 'admin:photos.photoN', { n: 2 }) }));
      await field('nameDe').fill('Graues Schlafsofa');
      await field('nameUk').fill('Сірий диван-ліжко');
      await field('descriptionDe').fill('Dreisitzer zum Ausklappen, sauber, ohne Flecken.');
      await screenshot(admin, 'flow-donation-lot-desktop');
      await form.getByRole('button', { name: t('de', 'admin:lots.createSubmit') }).click();
      await admin.waitForURL(/\/admin\/lots\/\d+$/);
      const lotId = Number(/\/admin\/lots\/(\d+)$/.exec(admin.url())?.[1]);

      // the lot is public with the donor's two photos and the donor's name (they agreed)
      const lot = await world.waitForLot(lotId, (l) => l.photos.length === 2);
      expect(lot).toMatchObject({
        donor: donor.name,
        location: donor.city,
        category_id: category.id,
      });
      const family = await (await world.phone('uk-UA')).newPage();
      await family.goto(`/lots/${lotId}`);
      await visible(family.getByRole('heading', { level: 1, name: 'Сірий диван-ліжко' }));
      await visible(
        family.getByRole('button', {
          name: t(lang, 'public:gallery.openFullscreen', { n: 1, count: 2 }),
        }),
      );

      // the donor finds it by phone, accepted, with its photos
      await page.goto('/donate');
      const lookup = page.getByRole('region', { name: t(lang, 'donate:lookup.title') });
      await lookup
        .getByRole('textbox', { name: startsWith(t(lang, 'donate:lookup.phone')) })
        .fill(donor.phone);
      await lookup.getByRole('button', { name: t(lang, 'donate:lookup.submit') }).click();
      const mine = await visible(
        lookup
          .getByRole('listitem')
          .filter({ hasText: t(lang, 'donate:lookup.number', { id: donationId }) }),
      );
      await visible(mine.getByText(t(lang, 'donate:status.accepted'), { exact: true }));
      await visible(
        mine.getByRole('img', { name: t(lang, 'donate:photos.photoOf', { n: 2, item: 1 }) }),
      );
      await world.mail.waitFor(donor.email, new RegExp(`пожертва № ${donationId}: ми з радістю`));
    }));
}
