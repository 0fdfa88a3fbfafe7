import { File as NodeFile } from 'node:buffer';
import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import deDonate from '../../../../public/locales/de/donate.json';
import ukDonate from '../../../../public/locales/uk/donate.json';
import { i18n } from '../../../app/i18n';
import { CATEGORIES, serveCatalog } from '../../../test/fixtures';
import { renderApp } from '../../../test/render';
import { apiUrl, server } from '../../../test/server';

i18n.addResourceBundle('de', 'donate', deDonate, true, true);
i18n.addResourceBundle('uk', 'donate', ukDonate, true, true);

// jsdom decodes no images: every chosen photo is a 4000×3000 one
jest.mock('../../../lib/image-size', () => ({
  readImageSize: async () => ({ width: 4000, height: 3000 }),
}));

const photo = (name: string) =>
  new NodeFile([new Uint8Array(3000)], name, { type: 'image/jpeg' }) as unknown as File;

const CREATED = {
  id: 12,
  status: 'submitted',
  created_at: '2026-06-10T09:00:00Z',
  items: [{ id: 101 }, { id: 102 }],
  upload_token: 'token-abc',
};

const photoAnswer = (n: number) =>
  HttpResponse.json(
    {
      success: true,
      data: {
        urls: {
          thumbnail: `/media/donations/12/p${n}-thumbnail.webp`,
          medium: `/media/donations/12/p${n}-medium.webp`,
          large: `/media/donations/12/p${n}-large.webp`,
        },
      },
    },
    { status: 201 },
  );

async function openPage(lang: 'de' | 'uk' = 'de') {
  await i18n.changeLanguage(lang);
  const view = renderApp('/donate');
  await screen.findByRole('heading', {
    level: 1,
    name: lang === 'de' ? 'Möbel spenden' : 'Пожертвувати меблі',
  });
  return view;
}

type User = Awaited<ReturnType<typeof openPage>>['user'];

/** Fills the donor's part and the first item as a German donor would. */
async function fillDonor(user: User) {
  await user.type(screen.getByRole('textbox', { name: /^Ihr Name/ }), 'Jonas Weber');
  await user.type(screen.getByRole('textbox', { name: 'Telefonnummer' }), '0176 1234567');
  await user.type(screen.getByRole('textbox', { name: /^E-Mail/ }), 'jonas@example.org');
  await user.type(screen.getByRole('textbox', { name: /^Ort/ }), 'Leipzig');
  await user.type(screen.getByRole('textbox', { name: /^Straße und Hausnummer/ }), 'Ringweg 3');
  await user.type(screen.getByRole('textbox', { name: /^Etage/ }), '2');
  await user.type(screen.getByRole('textbox', { name: /^Verfügbar bis/ }), '31.12.2099');
}

async function fillItem(user: User, n: number, category: string, description: string) {
  const item = screen.getByRole('listitem', { name: `Möbelstück ${n}` });
  // the categories arrive from the catalog
  await within(item).findByRole('option', { name: 'Betten' });
  await user.selectOptions(within(item).getByRole('combobox', { name: /^Kategorie/ }), category);
  await user.type(within(item).getByRole('textbox', { name: /^Beschreibung/ }), description);
  return item;
}

describe('the donate page', () => {
  beforeEach(() => serveCatalog());

  test('when the header and the footer are shown, then both link to the donate page, in German and in Ukrainian', async () => {
    renderApp('/');
    const header = await screen.findByRole('banner');
    expect(within(header).getAllByRole('link', { name: 'Möbel spenden' })[0]).toHaveAttribute(
      'href',
      '/donate',
    );
    const footer = await screen.findByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: 'Möbel spenden' })).toHaveAttribute(
      'href',
      '/donate',
    );
    await act(() => i18n.changeLanguage('uk'));
    expect(
      await within(header).findAllByRole('link', { name: 'Пожертвувати меблі' }),
    ).not.toHaveLength(0);
  });

  test('when the form is sent empty in Ukrainian, then each required field says so in Ukrainian, the name has the focus and nothing is sent', async () => {
    let sent = false;
    server.use(
      http.post(apiUrl('/donations/'), () => {
        sent = true;
        return HttpResponse.json(CREATED, { status: 201 });
      }),
    );
    const { user } = await openPage('uk');
    await user.click(screen.getByRole('button', { name: 'Запропонувати пожертву' }));
    const name = screen.getByRole('textbox', { name: /^Ваше ім’я/ });
    expect(name).toHaveFocus();
    expect(name).toHaveAccessibleDescription('Це поле обов’язкове');
    expect(screen.getByRole('textbox', { name: /^Опис/ })).toHaveAccessibleDescription(
      /Це поле обов’язкове/,
    );
    expect(screen.getByRole('checkbox', { name: /Я погоджуюся/ })).toHaveAccessibleDescription(
      'Будь ласка, погодьтеся на збереження ваших даних',
    );
    expect(screen.getByRole('textbox', { name: /^Доступно до/ })).toHaveAccessibleDescription(
      /Це поле обов’язкове/,
    );
    // an error goes away as soon as its field is edited
    await user.type(name, 'О');
    expect(name).not.toHaveAccessibleDescription('Це поле обов’язкове');
    expect(sent).toBe(false);
  });

  test('when a description is 9 characters long, then it says at least 10, and the counter follows the typing', async () => {
    const { user } = await openPage();
    const item = await fillItem(user, 1, '1', '123456789');
    await user.click(screen.getByRole('button', { name: 'Spende anbieten' }));
    const description = within(item).getByRole('textbox', { name: /^Beschreibung/ });
    expect(description).toHaveAccessibleDescription(/Mindestens 10 Zeichen/);
    expect(description).toHaveAccessibleDescription(/\(9 geschrieben\)/);
  });

  test('when items are added and removed, then there are at most ten and the first cannot be removed', async () => {
    const { user } = await openPage();
    expect(screen.queryByRole('button', { name: /Entfernen/ })).not.toBeInTheDocument();
    const add = screen.getByRole('button', { name: 'Weiteres Möbelstück hinzufügen' });
    for (let i = 0; i < 9; i += 1) await user.click(add);
    expect(screen.getAllByRole('listitem', { name: /^Möbelstück \d+$/ })).toHaveLength(10);
    expect(add).toBeDisabled();
    expect(screen.getByText('10 von höchstens 10 Möbelstücken')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Entfernen (Möbelstück 4)' }));
    expect(screen.getAllByRole('listitem', { name: /^Möbelstück \d+$/ })).toHaveLength(9);
    expect(add).toBeEnabled();
    expect(add).toHaveFocus();
  });

  test('when a donation with photos is sent, then it is stored, each photo goes to its item with the upload token and a progress bar, and the number shows', async () => {
    let body: Record<string, unknown> | undefined;
    const uploads: { url: string; token: string | null; file: string }[] = [];
    server.use(
      http.post(apiUrl('/donations/'), async ({ request }) => {
        body = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json(CREATED, { status: 201 });
      }),
      http.post(apiUrl('/donations/12/items/:itemId/photos'), async ({ request }) => {
        const form = await request.formData();
        uploads.push({
          url: new URL(request.url).pathname,
          token: request.headers.get('x-donation-token'),
          file: (form.get('file') as File).name,
        });
        return photoAnswer(uploads.length);
      }),
    );
    const { user } = await openPage();
    await fillDonor(user);
    const first = await fillItem(user, 1, '1', 'Graues Sofa, drei Sitze, sauber');
    await user.upload(within(first).getByLabelText(/^Fotos auswählen/), [
      photo('sofa-vorne.jpg'),
      photo('sofa-seite.jpg'),
    ]);
    expect(
      await within(first).findByRole('img', { name: 'Foto 2 von Möbelstück 1' }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Weiteres Möbelstück hinzufügen' }));
    const second = await fillItem(user, 2, '2', 'Kinderbett mit Matratze, 70 × 140');
    await user.upload(within(second).getByLabelText(/^Fotos auswählen/), [photo('bett.jpg')]);
    await within(second).findByRole('img', { name: 'Foto 1 von Möbelstück 2' });
    await user.click(screen.getByRole('checkbox', { name: /Ich bin einverstanden/ }));
    await user.click(screen.getByRole('button', { name: 'Spende anbieten' }));

    const heading = await screen.findByRole('heading', {
      name: 'Vielen Dank! Ihre Spende Nr. 12 ist eingegangen.',
    });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(body).toMatchObject({
      donor_name: 'Jonas Weber',
      donor_phone: '01761234567',
      donor_email: 'jonas@example.org',
      language: 'de',
      city: 'Leipzig',
      floor: 2,
      available_until: '2099-12-31',
      consent: true,
      donor_name_public: false,
      items: [
        { category_id: 1, description: 'Graues Sofa, drei Sitze, sauber' },
        { category_id: 2, description: 'Kinderbett mit Matratze, 70 × 140' },
      ],
    });
    expect(await screen.findByText('Alle Fotos sind angekommen.')).toBeInTheDocument();
    expect(uploads).toEqual([
      { url: '/api/v1/donations/12/items/101/photos', token: 'token-abc', file: 'sofa-vorne.jpg' },
      { url: '/api/v1/donations/12/items/101/photos', token: 'token-abc', file: 'sofa-seite.jpg' },
      { url: '/api/v1/donations/12/items/102/photos', token: 'token-abc', file: 'bett.jpg' },
    ]);
    for (const name of [
      'Foto 1 von Möbelstück 1',
      'Foto 2 von Möbelstück 1',
      'Foto 1 von Möbelstück 2',
    ]) {
      expect(screen.getByRole('progressbar', { name })).toHaveAttribute('aria-valuenow', '100');
    }
    expect(screen.getByText('Eine Bestätigung ist per E-Mail unterwegs.')).toBeInTheDocument();

    // another donation starts from an empty form
    await user.click(screen.getByRole('button', { name: 'Weitere Spende anbieten' }));
    expect(await screen.findByRole('textbox', { name: /^Ihr Name/ })).toHaveValue('');
  });

  test('when a photo fails for want of a connection, then it says so and "try again" sends it once more', async () => {
    let attempts = 0;
    server.use(
      http.post(apiUrl('/donations/'), () => HttpResponse.json(CREATED, { status: 201 })),
      http.post(apiUrl('/donations/12/items/101/photos'), () => {
        attempts += 1;
        return attempts === 1 ? HttpResponse.error() : photoAnswer(1);
      }),
    );
    const { user } = await openPage();
    await fillDonor(user);
    const item = await fillItem(user, 1, '1', 'Graues Sofa, drei Sitze, sauber');
    await user.upload(within(item).getByLabelText(/^Fotos auswählen/), [photo('sofa.jpg')]);
    await within(item).findByRole('img', { name: 'Foto 1 von Möbelstück 1' });
    await user.click(screen.getByRole('checkbox', { name: /Ich bin einverstanden/ }));
    await user.click(screen.getByRole('button', { name: 'Spende anbieten' }));

    expect(await screen.findByText('Keine Verbindung zum Server.')).toBeInTheDocument();
    expect(screen.getByText('1 Foto(s) konnten nicht hochgeladen werden.')).toBeInTheDocument();
    await user.click(
      screen.getByRole('button', { name: 'Erneut versuchen (Foto 1 von Möbelstück 1)' }),
    );
    expect(await screen.findByText('Alle Fotos sind angekommen.')).toBeInTheDocument();
    expect(attempts).toBe(2);
  });

  test('when the server refuses a photo as no image, then its message shows and there is nothing to retry', async () => {
    server.use(
      http.post(apiUrl('/donations/'), () => HttpResponse.json(CREATED, { status: 201 })),
      http.post(apiUrl('/donations/12/items/101/photos'), () =>
        HttpResponse.json(
          { code: 'INVALID_IMAGE', message: 'Die Datei ist kein Bild.' },
          { status: 422 },
        ),
      ),
    );
    const { user } = await openPage();
    await fillDonor(user);
    const item = await fillItem(user, 1, '1', 'Graues Sofa, drei Sitze, sauber');
    await user.upload(within(item).getByLabelText(/^Fotos auswählen/), [photo('sofa.jpg')]);
    await within(item).findByRole('img', { name: 'Foto 1 von Möbelstück 1' });
    await user.click(screen.getByRole('checkbox', { name: /Ich bin einverstanden/ }));
    await user.click(screen.getByRole('button', { name: 'Spende anbieten' }));
    expect(await screen.findByText('Die Datei ist kein Bild.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Erneut versuchen/ })).not.toBeInTheDocument();
  });

  test('when the server refuses the donation with a 422, then the field it names shows its text and the banner asks to check', async () => {
    server.use(
      http.post(apiUrl('/donations/'), () =>
        HttpResponse.json(
          {
            code: 'VALIDATION_ERROR',
            message: 'Bitte prüfen Sie Ihre Angaben.',
            detail: [{ loc: ['body', 'address'], msg: 'Adresse unbekannt', type: 'value_error' }],
          },
          { status: 422 },
        ),
      ),
    );
    const { user } = await openPage();
    await fillDonor(user);
    await fillItem(user, 1, '1', 'Graues Sofa, drei Sitze, sauber');
    await user.click(screen.getByRole('checkbox', { name: /Ich bin einverstanden/ }));
    await user.click(screen.getByRole('button', { name: 'Spende anbieten' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Bitte prüfen Sie die markierten Angaben.',
    );
    const address = screen.getByRole('textbox', { name: /^Straße und Hausnummer/ });
    expect(address).toHaveAccessibleDescription('Adresse unbekannt');
    expect(address).toHaveFocus();
  });

  test('when a donor looks up their number, then it is sent normalized and the donations show newest first with status, date and photos', async () => {
    let asked: unknown;
    server.use(
      http.post(apiUrl('/donations/lookup'), async ({ request }) => {
        asked = await request.json();
        return HttpResponse.json({
          donations: [
            {
              id: 3,
              status: 'declined',
              created_at: '2026-03-01T09:00:00Z',
              available_until: '2026-03-20',
              items: [{ id: 5, description: 'Alter Schrank', photos: [] }],
            },
            {
              id: 7,
              status: 'accepted',
              created_at: '2026-05-02T14:30:00Z',
              available_until: '2026-06-30',
              items: [
                {
                  id: 9,
                  description: 'Graues Sofa',
                  photos: [
                    {
                      thumbnail: '/media/donations/7/a-thumbnail.webp',
                      medium: '/media/donations/7/a-medium.webp',
                      large: '/media/donations/7/a-large.webp',
                    },
                  ],
                },
              ],
            },
          ],
        });
      }),
    );
    const { user } = await openPage();
    const lookup = screen.getByRole('region', { name: 'Meine Spenden' });
    await user.type(
      within(lookup).getByRole('textbox', { name: /^Telefonnummer zum Suchen/ }),
      '+49 (176) 123 45-67',
    );
    await user.click(within(lookup).getByRole('button', { name: 'Spenden anzeigen' }));
    const list = await within(lookup).findByRole('list', { name: 'Ihre Spenden' });
    expect(asked).toEqual({ phone: '+491761234567' });
    const entries = within(list)
      .getAllByRole('listitem')
      .filter((li) => li.parentElement === list);
    expect(entries.map((e) => within(e).getByText(/^Spende Nr\./).textContent)).toEqual([
      'Spende Nr. 7',
      'Spende Nr. 3',
    ]);
    expect(entries[0]).toHaveTextContent('Angenommen');
    expect(entries[0]).toHaveTextContent(/02\.05\.2026/);
    expect(
      within(entries[0]!).getByRole('img', { name: 'Foto 1 von Möbelstück 1' }),
    ).toHaveAttribute('src', '/media/donations/7/a-thumbnail.webp');
    expect(entries[0]).toHaveTextContent('Verfügbar bis 30.06.2026');
    expect(entries[1]).toHaveTextContent('Abgelehnt');
  });

  test('when the lookup is refused as too frequent, then it says so and the form stays', async () => {
    server.use(
      http.post(apiUrl('/donations/lookup'), () =>
        HttpResponse.json({ code: 'RATE_LIMITED', message: 'Too many' }, { status: 429 }),
      ),
    );
    const { user } = await openPage();
    const lookup = screen.getByRole('region', { name: 'Meine Spenden' });
    await user.type(
      within(lookup).getByRole('textbox', { name: /^Telefonnummer zum Suchen/ }),
      '0176 1234567',
    );
    await user.click(within(lookup).getByRole('button', { name: 'Spenden anzeigen' }));
    expect(await within(lookup).findByRole('alert')).toHaveTextContent(
      'Zu viele Anfragen. Bitte versuchen Sie es in ein paar Minuten erneut.',
    );
    expect(within(lookup).getByRole('textbox', { name: /^Telefonnummer zum Suchen/ })).toHaveValue(
      '0176 1234567',
    );
  });
});

// the categories the form offers are the public ones
test('when the form shows, then the item offers the public categories in the page language', async () => {
  serveCatalog();
  await i18n.changeLanguage('uk');
  renderApp('/donate');
  const select = await screen.findByRole('combobox', { name: /^Категорія/ });
  await waitFor(() =>
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Будь ласка, виберіть …', ...CATEGORIES.map((c) => c.name.uk)]),
  );
});
